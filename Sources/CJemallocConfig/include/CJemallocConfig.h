// Nothing to call: the target only defines jemalloc's `malloc_conf` (malloc_conf.c).
