/*
 * shim.c - fault injection for the torture tests (tests/torture/run.sh),
 * loaded with LD_PRELOAD into an unmodified program.  Modelled on curl's
 * torture mode (fail the Nth allocation, tests/runtests.pl -t) and
 * SQLite's I/O error injection (fail the Nth write, test_vfs.c).
 *
 * Allocation failure: TORTURE_ALLOC=N makes the Nth allocation from main()
 * onward return NULL with ENOMEM (malloc, calloc, realloc, reallocarray,
 * posix_memalign, aligned_alloc, memalign, valloc; strdup, getline, fopen and
 * the libraries reach malloc through these).  Only that one fails, so a
 * library that retries can absorb it.  Allocations before main (the loader,
 * library constructors) are not counted.
 *
 * Allocation failure at one place: TORTURE_ALLOC_IN=FUNC makes the first
 * allocation made inside a call of FUNC fail (the calls before the first
 * that allocates pass), whatever was allocated before: a failure at a known
 * place, which does not move with the libraries' versions as an allocation
 * number does.  FUNC is one of the functions the shim wraps: curl_url_set
 * (libcurl parsing a URL), curl_multi_perform (libcurl running the
 * transfers) and htmlParseChunk (libxml2 parsing an HTML document).
 *
 * I/O failure: TORTURE_IO=N and TORTURE_IO_ERRNO=ENOSPC|EIO make the Nth
 * output operation fail with that errno.  Output operations are those on
 * files beneath TORTURE_IO_DIR: write, writev, pwrite, fsync, fdatasync,
 * close, fflush, fclose on a descriptor or stream open on such a file, and
 * rename/renameat whose source is such a file.  From the Nth operation on,
 * a seccomp filter makes every write and sync of that descriptor fail too,
 * as a full disk stays full; so a stdio stream that buffered the data sees
 * the error when it flushes, as it would.
 *
 * TORTURE_IO_ONLY=rename: only renames count as output operations (so
 * TORTURE_IO=2 fails the second rename of a program's outputs).
 *
 * TORTURE_COUNT=FILE: at exit, write "ALLOCS IOOPS\n" (the counts seen) to
 * FILE, which the runner reads to know how many N to try.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
void *memalign(size_t, size_t);
int curl_url_set(void *, int, const char *, unsigned);
int curl_multi_perform(void *, int *);
int htmlParseChunk(void *, const char *, int, int);
int __libc_start_main(int (*)(int, char **, char **), int, char **,
    void (*)(void), void (*)(void), void (*)(void), void *);

/* The shim's whole state: one process, counters only. */
static int armed;			/* main() has begun */
static unsigned long alloc_n, alloc_fail;
static unsigned long io_n, io_fail;
static int io_errno = ENOSPC;
static int io_only_rename;
static const char *io_dir;
static size_t io_dir_len;
static const char *count_file;
static const char *alloc_in;		/* TORTURE_ALLOC_IN */
static int in_depth;			/* calls of alloc_in under way */
static int in_failed;			/* its allocation has failed */

/*
 * The real functions, looked up before main (dlsym may allocate, and an
 * allocation it makes must neither be counted nor fail).
 */
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_writev)(int, const struct iovec *, int);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_close)(int);
static int (*real_rename)(const char *, const char *);
static int (*real_renameat)(int, const char *, int, const char *);
static int (*real_fflush)(FILE *);
static int (*real_fclose)(FILE *);
static FILE *(*real_fopen)(const char *, const char *);
/* libcurl's and libxml2's, when the program has them (the types as the
 * shim sees them) */
static int (*real_curl_url_set)(void *, int, const char *, unsigned);
static int (*real_curl_multi_perform)(void *, int *);
static int (*real_htmlParseChunk)(void *, const char *, int, int);

#define LOOKUP(name) (real_##name = (__typeof__(real_##name))dlsym(RTLD_NEXT, #name))

static void
lookup_all(void)
{
	LOOKUP(write);
	LOOKUP(writev);
	LOOKUP(pwrite);
	LOOKUP(fsync);
	LOOKUP(fdatasync);
	LOOKUP(close);
	LOOKUP(rename);
	LOOKUP(renameat);
	LOOKUP(fflush);
	LOOKUP(fclose);
	LOOKUP(fopen);
	LOOKUP(curl_url_set);
	LOOKUP(curl_multi_perform);
	LOOKUP(htmlParseChunk);
}

static int
alloc_fails(void)
{
	if (!armed)
		return 0;
	if (in_depth > 0 && !in_failed) {
		in_failed = 1;
		errno = ENOMEM;
		return 1;
	}
	if (++alloc_n == alloc_fail) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *
malloc(size_t n)
{
	return alloc_fails() ? NULL : __libc_malloc(n);
}

void *
calloc(size_t n, size_t m)
{
	return alloc_fails() ? NULL : __libc_calloc(n, m);
}

void *
realloc(void *p, size_t n)
{
	return alloc_fails() ? NULL : __libc_realloc(p, n);
}

void *
reallocarray(void *p, size_t n, size_t m)
{
	if (m && n > SIZE_MAX / m) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * m);
}

void *
memalign(size_t a, size_t n)
{
	return alloc_fails() ? NULL : __libc_memalign(a, n);
}

void *
aligned_alloc(size_t a, size_t n)
{
	return memalign(a, n);
}

void *
valloc(size_t n)
{
	return memalign((size_t)sysconf(_SC_PAGESIZE), n);
}

int
posix_memalign(void **pp, size_t a, size_t n)
{
	void *p;

	if (alloc_fails())
		return ENOMEM;
	if ((p = __libc_memalign(a, n)) == NULL)
		return ENOMEM;
	*pp = p;
	return 0;
}

/* ------------------------------------------------------------ I/O */

/* Is fd open on a file beneath TORTURE_IO_DIR? */
static int
fd_is_output(int fd)
{
	char link[64], path[PATH_MAX];
	ssize_t n;

	if (io_dir == NULL || fd < 0)
		return 0;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof path - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	return strncmp(path, io_dir, io_dir_len) == 0 &&
	    (path[io_dir_len] == '/' || path[io_dir_len] == '\0');
}

static int
path_is_output(int dirfd, const char *p)
{
	int fd, r;

	if (io_dir == NULL)
		return 0;
	fd = openat(dirfd, p, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return 0;
	r = fd_is_output(fd);
	real_close(fd);
	return r;
}

/* From now on every write and sync of fd fails with io_errno. */
static void
poison_fd(int fd)
{
	static const int nrs[] = { SYS_write, SYS_writev, SYS_pwrite64,
	    SYS_pwritev, SYS_pwritev2, SYS_fsync, SYS_fdatasync };
	enum { NN = sizeof nrs / sizeof nrs[0], ALLOW = 5 + NN, DENY = 6 + NN };
	struct sock_filter f[DENY + 1];
	struct sock_fprog prog;
	unsigned i;

	/* 0-4: the architecture, then the descriptor, then the call */
	f[0] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, arch));
	f[1] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
	    AUDIT_ARCH_X86_64, 0, ALLOW - 2);
	f[2] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, args[0]));
	f[3] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
	    (unsigned)fd, 0, ALLOW - 4);
	f[4] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, nr));
	for (i = 0; i < NN; i++)
		f[5 + i] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ |
		    BPF_K, (unsigned)nrs[i], DENY - (5 + i) - 1, 0);
	f[ALLOW] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_ALLOW);
	f[DENY] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_ERRNO | ((unsigned)io_errno & SECCOMP_RET_DATA));
	prog.len = DENY + 1;
	prog.filter = f;
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
		abort();	/* the test would prove nothing */
}

/*
 * Count one output operation on fd (-1 and by_path set: a rename of an
 * output); 1 when it is the one to fail.
 */
static int
io_fails(int fd, int by_path)
{
	if (!armed || io_dir == NULL || !(by_path || fd_is_output(fd)))
		return 0;
	if (io_only_rename && !by_path)
		return 0;
	if (++io_n < io_fail || io_fail == 0)
		return 0;
	if (io_n == io_fail && fd >= 0)
		poison_fd(fd);
	return io_n == io_fail;
}


ssize_t
write(int fd, const void *p, size_t n)
{
	if (io_fails(fd, 0)) {
		errno = io_errno;
		return -1;
	}
	return real_write(fd, p, n);
}

ssize_t
writev(int fd, const struct iovec *v, int n)
{
	if (io_fails(fd, 0)) {
		errno = io_errno;
		return -1;
	}
	return real_writev(fd, v, n);
}

ssize_t
pwrite(int fd, const void *p, size_t n, off_t at)
{
	if (io_fails(fd, 0)) {
		errno = io_errno;
		return -1;
	}
	return real_pwrite(fd, p, n, at);
}

int
fsync(int fd)
{
	if (io_fails(fd, 0)) {
		errno = io_errno;
		return -1;
	}
	return real_fsync(fd);
}

int
fdatasync(int fd)
{
	if (io_fails(fd, 0)) {
		errno = io_errno;
		return -1;
	}
	return real_fdatasync(fd);
}

/* close(2) reports a deferred write error (NFS, some FUSE): it closes. */
int
close(int fd)
{
	int fail = io_fails(fd, 0), r = real_close(fd);

	if (fail) {
		errno = io_errno;
		return -1;
	}
	return r;
}

int
rename(const char *from, const char *to)
{
	if (io_fails(-1, path_is_output(AT_FDCWD, from))) {
		errno = io_errno;
		return -1;
	}
	return real_rename(from, to);
}

int
renameat(int fd1, const char *from, int fd2, const char *to)
{
	if (io_fails(-1, path_is_output(fd1, from))) {
		errno = io_errno;
		return -1;
	}
	return real_renameat(fd1, from, fd2, to);
}

/* A stream's flush: the seccomp filter makes its buffered write fail. */
int
fflush(FILE *fp)
{
	if (fp != NULL)
		io_fails(fileno(fp), 0);
	return real_fflush(fp);
}

int
fclose(FILE *fp)
{
	io_fails(fileno(fp), 0);
	return real_fclose(fp);
}

/* ------------------------------------------------------------ places */

/* A call of name begins (1: it is TORTURE_ALLOC_IN's function) or ends. */
static int
call_begin(const char *name)
{
	if (!armed || alloc_in == NULL || in_failed || strcmp(alloc_in, name) != 0)
		return 0;
	in_depth++;
	return 1;
}

static void
call_end(int began)
{
	if (began)
		in_depth--;
}

int
curl_url_set(void *u, int what, const char *part, unsigned flags)
{
	int began = call_begin("curl_url_set"), r;

	r = real_curl_url_set(u, what, part, flags);
	call_end(began);
	return r;
}

int
curl_multi_perform(void *multi, int *running)
{
	int began = call_begin("curl_multi_perform"), r;

	r = real_curl_multi_perform(multi, running);
	call_end(began);
	return r;
}

int
htmlParseChunk(void *ctxt, const char *chunk, int size, int terminate)
{
	int began = call_begin("htmlParseChunk"), r;

	r = real_htmlParseChunk(ctxt, chunk, size, terminate);
	call_end(began);
	return r;
}

/* ------------------------------------------------------------ start */

static void
report(void)
{
	FILE *f;

	armed = 0;
	if (count_file && (f = real_fopen(count_file, "w")) != NULL) {
		fprintf(f, "%lu %lu\n", alloc_n, io_n);
		real_fclose(f);
	}
}

static unsigned long
env_num(const char *name)
{
	const char *s = getenv(name);

	return s ? strtoul(s, NULL, 10) : 0;
}

typedef int (*main_fn)(int, char **, char **);
static main_fn real_main;

static int
torture_main(int argc, char **argv, char **envp)
{
	const char *e = getenv("TORTURE_IO_ERRNO");

	lookup_all();
	alloc_fail = env_num("TORTURE_ALLOC");
	io_fail = env_num("TORTURE_IO");
	io_dir = getenv("TORTURE_IO_DIR");
	io_dir_len = io_dir ? strlen(io_dir) : 0;
	if (e && strcmp(e, "EIO") == 0)
		io_errno = EIO;
	e = getenv("TORTURE_IO_ONLY");
	io_only_rename = e && strcmp(e, "rename") == 0;
	count_file = getenv("TORTURE_COUNT");
	alloc_in = getenv("TORTURE_ALLOC_IN");
	atexit(report);
	armed = 1;
	return real_main(argc, argv, envp);
}

/* glibc calls __libc_start_main(main, ...); we hand it torture_main. */
int
__libc_start_main(main_fn m, int argc, char **argv, void (*init)(void),
    void (*fini)(void), void (*rtld_fini)(void), void *stack)
{
	int (*real)(main_fn, int, char **, void (*)(void), void (*)(void),
	    void (*)(void), void *);

	real = dlsym(RTLD_NEXT, "__libc_start_main");
	real_main = m;
	return real(torture_main, argc, argv, init, fini, rtld_fini, stack);
}
