// Must not build: readers is a sibling of writers, not below it.
#include "writers/theme.h"
#include "readers/csv.h"
