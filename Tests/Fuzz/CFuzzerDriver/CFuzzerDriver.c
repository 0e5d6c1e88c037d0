// Declarations only: LLVMFuzzerRunDriver comes from libFuzzer's runtime.
#include "CFuzzerDriver.h"
