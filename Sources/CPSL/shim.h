#ifndef MUSTER_CPSL_SHIM_H
#define MUSTER_CPSL_SHIM_H
// The Public Suffix List reader from Debian's libpsl-dev (its data: the publicsuffix package).
#include <libpsl.h>
#endif
