# Inputs of bmdprep(1)'s examples: an llms.txt by hand and the two documents
# it links (a relative and an absolute link).
set -eu
printf '# Ex\n\n> e\n\n## Docs\n- [A](a.md): a\n- [B](https://e.org/b.md): b\n' >llms.txt
printf '# A\n<!-- x -->\ntext\n' >a.md
printf '# B\n' >b.md
