// Must not build: serve is below cli, so cli's headers are not found.
#include "serve/store.h"
#include "cli/commands.h"
