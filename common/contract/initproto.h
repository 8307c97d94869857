#ifndef SC_CONTRACT_INITPROTO_H
#define SC_CONTRACT_INITPROTO_H
/* sc-pid1's report protocol: one line per event on the report pipe, a word
 * and its argument ("-" when it has none).  Header-only: cmd/sc-pid1.c is
 * static and links no library, yet writes the very words the host half
 * (sandbox/initproto.c) reads.
 *   ready -                the sandbox is up, the command starts now
 *   exec-failed ERRNO      the command could not be started
 *   exit N | signal N      how the command ended
 *   init-failed TEXT       PID 1 could not do its part
 *   self-test-ok -         every self-test probe held
 *   self-test-failed TEXT  the first probe that did not
 * A line is at most SC_INIT_LINE_MAX bytes; unknown lines are ignored. */
#define SC_INIT_READY "ready"
#define SC_INIT_EXEC_FAILED "exec-failed"
#define SC_INIT_EXIT "exit"
#define SC_INIT_SIGNAL "signal"
#define SC_INIT_FAILED "init-failed"
#define SC_INIT_SELF_TEST_OK "self-test-ok"
#define SC_INIT_SELF_TEST_FAILED "self-test-failed"
#define SC_INIT_NO_ARG "-"
#define SC_INIT_LINE_MAX 299

#endif
