/*
 * xmem.h - libxml2's allocations for one page from an arena.
 *
 * A page's tree (nodes, attributes, strings, the parser's dictionary and
 * buffers) is allocated by bumping a pointer through large blocks laid out
 * in document order, and forgotten at once when the page is done, instead
 * of one malloc per node and one free per node at the end.  libxml2 takes
 * its allocators as plain function pointers (xmlMemSetup), so the arena is
 * the process's: bread is single-threaded, and only main.c installs it.
 * Where it is not installed (the unit tests, the fuzz target, and any
 * build with AddressSanitizer, which must see each node), begin and end do
 * nothing and libxml2 allocates node by node.
 */
#ifndef BREAD_XMEM_H
#define BREAD_XMEM_H

/*
 * Make libxml2 allocate through bread's allocators (dying on failure).
 * Call once, before any other libxml2 call.
 */
void bread_xmem_install(void);

/*
 * From now on libxml2's allocations come from the arena.  Returns 1 when
 * the arena is installed: then everything libxml2 allocates until
 * bread_xmem_end is released by it (the caller frees no node, document or
 * dictionary entry itself); 0 when not, and nothing changes.
 */
int bread_xmem_begin(void);

/*
 * 1 between bread_xmem_begin and bread_xmem_end when the arena is
 * installed: then what libxml2 frees stays where it is until
 * bread_xmem_end, and a string libxml2 is done with may be kept in the tree.
 */
int bread_xmem_on(void);

/*
 * Release everything allocated since bread_xmem_begin (libxml2's last
 * error, which points into it, is reset first).  The blocks are kept for
 * the next page, and so are the eight largest of single allocations larger
 * than a block (up to 32 MB each), for the next page's large allocations.
 */
void bread_xmem_end(void);
#endif
