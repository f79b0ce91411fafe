"""The composition root by area: each module builds the adapters of one area on the shared core
(composition/wiring.py: settings, the one cache, ``services()``), and each Lambda entry point
imports only the areas its function uses, so its artifact ships only those adapters' libraries
(deploy/build_artifacts.py follows imports). An area that backs one of ``services()``'s lazy
adapters ``provide``s it when imported."""
