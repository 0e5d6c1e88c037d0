#ifndef MUSTER_CNATS_SHIM_H
#define MUSTER_CNATS_SHIM_H
// libnats 3.4 from Debian's libnats-dev.
#include <nats/nats.h>
#endif
