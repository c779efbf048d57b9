// Must not build: lesson lies below readers.
#include "lesson/rubric.h"
#include "readers/csv.h"
