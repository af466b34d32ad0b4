#define _GNU_SOURCE
#include "CSpawn.h"
int cspawn_available(void) { return 1; }
