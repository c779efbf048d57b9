// Must not build: base is the lowest layer and sees no other.
#include "base/error.h"
#include "lesson/rubric.h"
