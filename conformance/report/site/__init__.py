"""The implementation report: a static site built from the reports of several implementations
(one report.json each, as `run` or `fleet` writes them) and, optionally, an interop matrix.

    index.html                    per draft and revision: implementations, requirements with fewer
                                  than two passing, links to everything below
    drafts/<draft>.html           every requirement of the draft (#ID): how many implementations
                                  pass, fail or leave it untested, and each one's status
    implementations/<slug>.html   one implementation's certification, its report.html beside it
    interop.html                  the interop matrix, each cell linking to its evidence
    status/<draft>.md, .xml       an RFC 7942 "Implementation Status" section, in Markdown and in
                                  xml2rfc v3, ready to paste into the draft

Plain HTML and CSS: no script, no server, links relative and stable (an anchor per requirement).
Each report is one implementation; give one report per independent implementation.
"""

from .build import SiteUnbuildable
from .build import build_site

__all__ = ["SiteUnbuildable", "build_site"]
