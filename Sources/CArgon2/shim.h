#ifndef MUSTER_CARGON2_SHIM_H
#define MUSTER_CARGON2_SHIM_H
// The reference argon2 implementation (20171227) from Debian's libargon2-dev.
#include <argon2.h>
#endif
