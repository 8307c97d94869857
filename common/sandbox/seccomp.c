#include "sandbox/seccomp.h"
#include "seccomp-bpf.h" /* generated: sc_seccomp_bpf[], see sandbox/seccomp_rules.h */

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

const unsigned char *sc_seccomp_filter(size_t *len)
{
	*len = sizeof sc_seccomp_bpf;
	return sc_seccomp_bpf;
}

static int write_filter(int fd)
{
	size_t off = 0;
	while (off < sizeof sc_seccomp_bpf) {
		ssize_t n = write(fd, sc_seccomp_bpf + off, sizeof sc_seccomp_bpf - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			errno = EIO;
		if (n <= 0)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

int sc_seccomp_filter_fd(struct strbuf *err)
{
	int fd = memfd_create("sc-seccomp", MFD_ALLOW_SEALING);
	if (fd < 0) {
		sb_adds(err, "cannot hold the seccomp filter (memfd_create)");
		return -1;
	}
	if (write_filter(fd) < 0 || lseek(fd, 0, SEEK_SET) < 0 ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) < 0) {
		int e = errno;
		sb_adds(err, "cannot write the seccomp filter (memfd)");
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}
