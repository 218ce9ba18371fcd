# Configuration file for the Sphinx documentation builder.
#
# For the full list of built-in configuration values, see the documentation:
# https://www.sphinx-doc.org/en/master/usage/configuration.html

import os
import sys

# The Python client lives in ../../client; autodoc imports it from there.
sys.path.insert(0, os.path.abspath("../client"))

# -- Project information -----------------------------------------------------

project = "Kilnforge"
copyright = "2021-2025, The Kilnforge contributors"
author = "The Kilnforge contributors"

# The short X.Y version and the full version, including alpha/beta/rc tags.
version = "2.4"
release = "2.4.1"

# -- General configuration ---------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    "sphinx.ext.todo",
    "sphinx_tabs.tabs",
    "sphinx_copybutton",
    "sphinx_issues",
]

# sphinx-issues: :issue:`123` links to the GitHub issue.
issues_github_path = "kilnforge/kilnforge"

templates_path = ["_templates"]

# Fragments under shared/ are only ever pulled in with ``.. include::``;
# they must not be built as pages of their own.
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "shared/*"]

source_suffix = {".rst": "restructuredtext"}
master_doc = "index"
language = "en"
pygments_style = "friendly"

# Shown at the end of every page, so |product| and friends work everywhere.
rst_epilog = """
.. |product| replace:: Kilnforge
.. |cli| replace:: ``kilnforge``
.. |image| replace:: ``ghcr.io/kilnforge/kilnforge``
.. |config_path| replace:: :file:`/etc/kilnforge/kilnforge.toml`
"""

intersphinx_mapping = {
    "python": ("https://docs.python.org/3", None),
}

autodoc_member_order = "bysource"
autodoc_typehints = "description"
todo_include_todos = False

# sphinx-tabs: remember the selected tab across pages.
sphinx_tabs_disable_tab_closing = True

# sphinx-copybutton: strip shell prompts when copying.
copybutton_prompt_text = r"\$ |# |>>> "
copybutton_prompt_is_regexp = True

# -- Options for HTML output -------------------------------------------------

html_theme = "sphinx_rtd_theme"
html_title = f"{project} {version} documentation"
html_logo = "_static/kilnforge-logo.svg"
html_favicon = "_static/favicon.ico"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_theme_options = {
    "navigation_depth": 3,
    "collapse_navigation": False,
}
html_context = {
    "display_github": True,
    "github_user": "kilnforge",
    "github_repo": "kilnforge",
    "github_version": "main",
    "conf_py_path": "/docs/",
}
