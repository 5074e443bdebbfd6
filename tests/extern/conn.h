/* A connection's state machine (tests/extern/conn_c.mc). */
#ifndef CONN_H
#define CONN_H
enum conn_state { closed, syn_sent, established, fin_wait };
enum conn_event { ev_open, ev_ack, ev_close, ev_timeout };

enum conn_state conn_step(enum conn_state s, enum conn_event e);
#endif
