#ifndef MUSTER_CARGON2_SHIM_H
#define MUSTER_CARGON2_SHIM_H
// The reference argon2 implementation (20171227) from Debian's libargon2-dev.
#include <argon2.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

// Names the calling thread `argon2` (what `top -H` shows for the hasher's threads). Swift's Glibc
// module has neither prctl nor pthread_setname_np.
static inline void muster_argon2_name_thread(void) {
#ifdef __linux__
    (void)prctl(PR_SET_NAME, "argon2", 0, 0, 0);
#endif
}
#endif
