// SPDX-License-Identifier: MIT
/* tests/disk/specs/sum.mc's header: the sum its invariant avoids. */
#ifndef BAD_SUM_H
#define BAD_SUM_H

#define BAD_SUM 15 /* no state's: the counters stop at 7 */

int bad_sum(void);

#endif
