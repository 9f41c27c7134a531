#!/usr/bin/env bash
# Regenerates the README's parameter table from the registry.
set -euo pipefail
cd "$(dirname "$0")/.."
table=$(build/app/mirofish presets --params --markdown)
python3 - "$table" <<'PY'
import re, sys
readme = open("README.md").read()
new = re.sub(r"<!-- params:begin -->.*<!-- params:end -->",
             lambda m: "<!-- params:begin -->\n" + sys.argv[1] + "\n<!-- params:end -->", readme, flags=re.S)
open("README.md", "w").write(new)
PY
