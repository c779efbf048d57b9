// Must not build: marking lies below cli.
#include "marking/mark_class.h"
#include "cli/commands.h"
