// Must not build: writers is a sibling of readers, not below it.
#include "readers/csv.h"
#include "writers/theme.h"
