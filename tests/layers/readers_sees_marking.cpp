// Must not build: readers lies below marking.
#include "readers/csv.h"
#include "marking/mark_class.h"
