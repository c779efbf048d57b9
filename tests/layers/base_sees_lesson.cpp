// Must not build: base is the lowest layer and sees no other.
#include "attnmark/base/error.h"
#include "attnmark/lesson/rubric.h"
