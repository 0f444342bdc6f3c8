# Sphinx site of the bread generator corpus: the default alabaster theme,
# Pygments highlighting, sphinx-tabs for the install tabs.
project = "Larkspur"
extensions = ["sphinx_tabs.tabs"]
html_static_path = ["_static"]
exclude_patterns = ["_build"]
