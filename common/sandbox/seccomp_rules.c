#include "sandbox/seccomp_rules.h"

#include <errno.h>
#include <sched.h>

/* Refused outright (EPERM).  A name this architecture lacks is skipped. */
static const char *const denied[] = {
	/* keyrings are not namespaced: the operator's would be reachable */
	"add_key", "request_key", "keyctl",
	/* another process's memory or state */
	"ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
	/* mounts and namespaces (bwrap has set them up already) */
	"mount", "umount", "umount2", "pivot_root", "chroot", "unshare", "setns", "fsopen", "fsconfig",
	"fsmount", "fspick", "move_mount", "open_tree", "mount_setattr",
	/* the kernel, its modules, swap, power */
	"reboot", "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module",
	"create_module", "get_kernel_syms", "query_module", "swapon", "swapoff", "acct", "quotactl",
	"quotactl_fd", "nfsservctl", "uselib", "ustat", "sysfs", "_sysctl", "vhangup", "syslog",
	"lookup_dcookie", "iopl", "ioperm", "vm86", "vm86old", "bpf", "perf_event_open",
	"fanotify_init", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
	/* legacy AIO: its contexts are a kernel-wide pool (fs.aio-max-nr) */
	"io_setup", "io_destroy", "io_submit", "io_cancel", "io_getevents", "io_pgetevents",
	/* the host's clocks */
	"settimeofday", "stime", "clock_settime", "clock_adjtime", "adjtimex",
	/* files by handle, around every mount */
	"open_by_handle_at", "name_to_handle_at",
	NULL,
};

/* clone with any of these makes a namespace. */
static const unsigned long clone_ns[] = {CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER,
                                         CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWCGROUP, 0x80 /* NEWTIME */};

/* personality flags that weaken the address space (READ_IMPLIES_EXEC,
 * ADDR_NO_RANDOMIZE, MMAP_PAGE_ZERO, ...): bits 16-27 but UNAME26 (0x20000).
 * libseccomp takes one comparison per argument and rule, so a bit per rule;
 * the query 0xffffffff is refused with them. */
static int deny_personality(scmp_filter_ctx c)
{
	for (int bit = 16; bit <= 27; bit++) {
		if (bit == 17)
			continue;
		scmp_datum_t m = 1ul << bit;
		int rc = seccomp_rule_add(c, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), 1,
		                          SCMP_A0(SCMP_CMP_MASKED_EQ, m, m));
		if (rc < 0)
			return rc;
	}
	return 0;
}

static int build(scmp_filter_ctx c)
{
	int rc = seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
	for (const char *const *p = denied; rc == 0 && *p; p++) {
		int nr = seccomp_syscall_resolve_name(*p);
		if (nr != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(c, SCMP_ACT_ERRNO(EPERM), nr, 0);
	}
	for (size_t i = 0; rc == 0 && i < sizeof clone_ns / sizeof *clone_ns; i++)
		rc = seccomp_rule_add(c, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
		                      SCMP_A0(SCMP_CMP_MASKED_EQ, clone_ns[i], clone_ns[i]));
	if (rc == 0)
		rc = seccomp_rule_add(c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (rc == 0)
		rc = deny_personality(c);
	return rc;
}

scmp_filter_ctx sc_seccomp_rules(void)
{
	scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
	if (!c)
		return NULL;
	int rc = build(c);
	if (rc < 0) {
		seccomp_release(c);
		errno = -rc;
		return NULL;
	}
	return c;
}
