#ifndef MUSTER_CNATS_SHIM_H
#define MUSTER_CNATS_SHIM_H
// libnats 3.4 from Debian's libnats-dev.
#include <nats/nats.h>

// Frees a message on the calling thread. natsMsg_Destroy hands every message (received, or made
// to publish) to libnats's collector thread, waking it for each one while it sleeps: a futex wake
// and two thread switches per message, 6 % of a busy notifier's CPU. A message's first member is
// the collector's link { next, freeCb } (libnats src/gc.h, the same since 1.0); without a free
// callback natsMsg_Destroy frees the message itself (src/msg.c), which is all the collector does.
static inline void muster_natsMsg_DestroyNow(natsMsg *msg) {
    if (msg == NULL) return;
    ((void **)msg)[1] = NULL;
    natsMsg_Destroy(msg);
}
#endif
