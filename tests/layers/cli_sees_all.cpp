// Must build: the top layer sees every layer below it, so each header the
// other cases include exists and is found through the links.
#include "attnmark/base/error.h"
#include "attnmark/lesson/rubric.h"
#include "readers/csv.h"
#include "writers/theme.h"
#include "marking/mark_class.h"
#include "serve/store.h"
#include "cli/commands.h"
