// Must not build: marking is below serve, so serve's headers are not found.
#include "marking/judge.h"
#include "serve/store.h"
