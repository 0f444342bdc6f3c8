/*
 * unit-atomic.c - unit tests of common/atomic.c's groups (TAP): several
 * outputs committed together, all or none, in a directory of its own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ctx.h"
#include "tap.h"

static char tmpdir[] = "/tmp/ctxbench-atomic.XXXXXX";

/* The text of tmpdir/rel, or "(absent)"; malloc'd. */
static char *
text(const char *rel)
{
	char *p = path_join(tmpdir, rel), *d;
	size_t len;

	d = read_file(p, &len, 0);
	free(p);
	return d ? d : xstrdup("(absent)");
}

static void
put(const char *rel, const char *s)
{
	char *p = path_join(tmpdir, rel);

	if (mkdir_parents(p, 0755) < 0 || atomic_write(p, s, strlen(s), 0644) < 0)
		die_errno("%s", p);
	free(p);
}

/* The names in tmpdir/rel, sorted, one line each: hidden temporaries too. */
static char *
listing(const char *rel)
{
	char *cmd = xasprintf("cd '%s/%s' && ls -A | sort | tr '\\n' ' '", tmpdir,
	    rel);
	FILE *fp = popen(cmd, "r");
	char line[1024] = "";

	if (fp == NULL || fgets(line, sizeof line, fp) == NULL)
		line[0] = '\0';
	if (fp)
		pclose(fp);
	free(cmd);
	return xstrdup(line);
}

static FILE *
stage(struct atomic_group *g, const char *rel, const char *s)
{
	char *p = path_join(tmpdir, rel);
	FILE *fp = atomic_group_open(g, p, 0644);

	if (fp == NULL)
		die_errno("%s", p);
	fputs(s, fp);
	free(p);
	return fp;
}

static void
mkdir_rel(struct atomic_group *g, const char *rel)
{
	char *p = path_join(tmpdir, rel);

	if (atomic_group_mkdir(g, p, 0755) < 0)
		die_errno("%s", p);
	free(p);
}

#define IS_TEXT(rel, want, what) do { \
	char *t_ = text(rel); \
	TAP_IS_STR(t_, want, what); \
	free(t_); \
} while (0)
#define IS_LIST(rel, want, what) do { \
	char *l_ = listing(rel); \
	TAP_IS_STR(l_, want, what); \
	free(l_); \
} while (0)

/* New files and a new directory tree appear together. */
static void
test_commit(void)
{
	struct atomic_group *g = atomic_group_new();
	char *bad = NULL;
	struct stat st;
	char *p;

	put("c/a.txt", "old a\n");
	mkdir_rel(g, "c");
	put("c/keep.txt", "keep\n");
	stage(g, "c/a.txt", "new a\n");
	stage(g, "c/b.txt", "new b\n");
	mkdir_rel(g, "c/fig/sub");
	stage(g, "c/fig/one.svg", "<svg/>\n");
	stage(g, "c/fig/sub/two.csv", "x\n");
	stage(g, "c/./fig//three.txt", "3\n");
	IS_TEXT("c/a.txt", "old a\n", "before the commit, a file keeps its old text");
	IS_TEXT("c/b.txt", "(absent)", "... and a new one is absent");
	p = path_join(tmpdir, "c/fig");
	TAP_OK(access(p, F_OK) < 0 && errno == ENOENT,
	    "... and so is a new directory");
	free(p);
	TAP_OK(atomic_group_commit(g, &bad) == 0, "the commit succeeds");
	IS_TEXT("c/a.txt", "new a\n", "a file replaced");
	IS_TEXT("c/b.txt", "new b\n", "a file made");
	IS_TEXT("c/fig/one.svg", "<svg/>\n", "a file in a new directory");
	IS_TEXT("c/fig/sub/two.csv", "x\n", "a file in its subdirectory");
	IS_TEXT("c/fig/three.txt", "3\n", "a file named through ./ and // in the new directory");
	IS_LIST("c", "a.txt b.txt fig keep.txt ", "no temporary or previous file left, other files kept");
	p = path_join(tmpdir, "c/fig");
	TAP_OK(stat(p, &st) == 0 && (st.st_mode & 0777) == (0755 & ~umask(022)),
	    "the new directory has its mode less the umask");
	umask(022);
	free(p);
}

/*
 * A rename that fails (the final name of a staged directory is taken by a
 * non-empty directory before the commit) undoes those already done.
 */
static void
test_undo(void)
{
	struct atomic_group *g = atomic_group_new();
	char *bad = NULL, *p;

	put("u/a.txt", "old a\n");
	mkdir_rel(g, "u");
	mkdir_rel(g, "u/fig");
	stage(g, "u/fig/one.svg", "<svg/>\n");
	stage(g, "u/b.txt", "new b\n");
	stage(g, "u/a.txt", "new a\n");
	p = path_join(tmpdir, "u/fig");
	if (mkdir(p, 0755) < 0)
		die_errno("%s", p);
	put("u/fig/theirs.txt", "theirs\n");
	errno = 0;
	TAP_OK(atomic_group_commit(g, &bad) < 0 && errno == EEXIST,
	    "a directory made meanwhile fails the commit (EEXIST)");
	TAP_IS_STR(bad, p, "... naming the path that failed");
	IS_TEXT("u/a.txt", "old a\n", "a replaced file is put back");
	IS_TEXT("u/b.txt", "(absent)", "a new file is removed");
	IS_LIST("u", "a.txt fig ", "no temporary left");
	IS_LIST("u/fig", "theirs.txt ", "the directory in the way is untouched");
	free(bad);
	free(p);
}

/* An abort leaves everything as it was; a directory cannot be a file. */
static void
test_abort(void)
{
	struct atomic_group *g = atomic_group_new();
	char *p;

	put("v/a.txt", "old a\n");
	mkdir_rel(g, "v");
	stage(g, "v/a.txt", "new a\n");
	mkdir_rel(g, "v/new/deep");
	stage(g, "v/new/deep/f", "f\n");
	p = path_join(tmpdir, "v");
	errno = 0;
	TAP_OK(atomic_group_open(g, p, 0644) == NULL && errno == EISDIR,
	    "a directory cannot be opened as a file (EISDIR)");
	free(p);
	p = path_join(tmpdir, "v/a.txt/x");
	errno = 0;
	TAP_OK(atomic_group_mkdir(g, p, 0755) < 0 && errno == ENOTDIR,
	    "a file cannot hold a directory (ENOTDIR)");
	free(p);
	atomic_group_abort(g);
	IS_TEXT("v/a.txt", "old a\n", "after an abort, a file keeps its old text");
	IS_LIST("v", "a.txt ", "... and nothing else is left");
}

/* The exit handler removes the temporaries of a group never committed. */
static void
test_exit(void)
{
	pid_t pid;
	int status;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct atomic_group *g = atomic_group_new();

		put("w/a.txt", "old a\n");
		mkdir_rel(g, "w");
		stage(g, "w/a.txt", "new a\n");
		mkdir_rel(g, "w/fig");
		stage(g, "w/fig/one.svg", "<svg/>\n");
		exit(1);
	}
	waitpid(pid, &status, 0);
	TAP_OK(WIFEXITED(status) && WEXITSTATUS(status) == 1, "a run exits before its commit");
	IS_TEXT("w/a.txt", "old a\n", "... its file keeps the old text");
	IS_LIST("w", "a.txt ", "... and the exit handler removed every temporary");
}

int
main(int argc, char **argv)
{
	char cmd[128];

	(void)argc;
	ctx_init(argv[0]);
	umask(022);
	if (mkdtemp(tmpdir) == NULL)
		die_errno("mkdtemp");
	test_commit();
	test_undo();
	test_abort();
	test_exit();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		warn("could not remove %s", tmpdir);
	return tap_done();
}
