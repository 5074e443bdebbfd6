// SPDX-License-Identifier: MIT
// main.h: the top of the runtime, main.c, with mcrt.h (docs/DESIGN.md,
// "Runtime layers"). Offers: mcrt_run, for mpi/mpi.c and the unit tests;
// the watchdog of C calls (watchdog.c).
// Requires: every layer (output/output.h and those below).
#ifndef MCRT_MAIN_H
#define MCRT_MAIN_H

#include "output/output.h"

// main.c: mcrt_main with the output streams given (tests capture them).
int mcrt_run(const McrtModel *model, int argc, char **argv, FILE *out, FILE *err);

// watchdog.c: the calls of C (`extern fn`) watched while they run; the
// generated wrappers call mcrt_extern_begin, _end, _abandoned (mcrt.h).
// Starts the thread that abandons a call past opt->extern_timeout_s, or
// one a stop signal finds running, when the model has extern functions.
// False after a message on err (the thread could not be started).
bool mcrt_watchdog_start(const McrtModel *m, const McrtOptions *opt, FILE *err);
void mcrt_watchdog_stop(void);

#endif
