// libnosync: makes fsync and fdatasync do nothing, for bench/run's
// diagnostic cases (b-nosync, c-nosync) only: loaded with LD_PRELOAD, it
// shows how much of a case's wall time is waiting for the disk. Never use it
// for real work: a crash could then leave empty files behind.
extern "C" int fsync(int) { return 0; }
extern "C" int fdatasync(int) { return 0; }
