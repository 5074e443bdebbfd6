#include "conn.h"

enum conn_state conn_step(enum conn_state s, enum conn_event e) {
  switch (s) {
  case closed:
    return e == ev_open ? syn_sent : closed;
  case syn_sent:
    return e == ev_ack ? established : e == ev_timeout ? closed : syn_sent;
  case established:
    return e == ev_close ? fin_wait : established;
  case fin_wait:
    return e == ev_ack || e == ev_timeout ? closed : fin_wait;
  }
  return closed;
}
