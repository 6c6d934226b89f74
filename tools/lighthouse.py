"""Lighthouse's mobile scores for every page of a built site, against the site's empty page.

Lighthouse is not a dependency of attnlit; install it outside the repository, then run:

    npm install --prefix /tmp/lh lighthouse@12.2.3      # needs node 20
    properdocs build --strict --site-dir /tmp/site
    python tools/lighthouse.py /tmp/site --lighthouse /tmp/lh/node_modules/.bin/lighthouse

Scores move a few points from run to run on a busy machine: read each page against 404.html
in the same run (the column "vs 404"), and repeat (--runs) to see how much they move.
--gzip serves text compressed, as GitHub Pages does; by default files go out as they are.
"""

import argparse
import functools
import gzip
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import site_config  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TEXT = {".html", ".css", ".js", ".json", ".svg"}
METRICS = {  # audit id -> column, unit
    "first-contentful-paint": ("FCP", "s"),
    "largest-contentful-paint": ("LCP", "s"),
    "total-blocking-time": ("TBT", "ms"),
    "dom-size": ("DOM", "elements"),
    "total-byte-weight": ("bytes", "KB"),
}


def pages() -> list[str]:
    """The empty page first, then every page of the navigation, as URL paths."""
    paths = []
    for page in site_config.nav_pages(ROOT):
        stem = page.removeprefix("docs/").removesuffix(".md").removesuffix(".py")
        paths.append("" if stem == "index" else f"{stem}/")
    return ["404.html", *paths]


def audit(lighthouse: str, url: str) -> dict:
    """One Lighthouse run (mobile preset, performance and accessibility) as {column: value}."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        subprocess.run(
            [lighthouse, url, "--quiet", "--output=json", f"--output-path={report}",
             "--only-categories=performance,accessibility",
             "--chrome-flags=--headless=new --no-sandbox"],
            check=True, env=dict(os.environ, CHROME_PATH=os.environ.get("CHROME_PATH", "/usr/bin/chromium")),
        )
        result = json.loads(report.read_text())
    # A score is null when Lighthouse could not measure the page (its runtimeError says why).
    row = {name: None if category["score"] is None else round(100 * category["score"])
           for name, category in result["categories"].items()}
    row["error"] = result.get("runtimeError", {}).get("message", "")
    for audit_id, (column, unit) in METRICS.items():
        value = result["audits"][audit_id].get("numericValue", float("nan"))
        row[column] = value / 1000 if unit in ("s", "KB") else value
    row["failing a11y"] = ", ".join(
        ref["id"] for ref in result["categories"]["accessibility"]["auditRefs"]
        if ref["weight"] and result["audits"][ref["id"]]["score"] == 0
    ) or row["error"]
    return row


def gap(score: int | None, floor: int | None) -> int | None:
    """A page's performance score minus the empty page's; None if either was not measured."""
    return None if score is None or floor is None else score - floor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", type=Path, help="a built site (properdocs build --site-dir ...)")
    parser.add_argument("--lighthouse", default="lighthouse", help="the lighthouse executable")
    parser.add_argument("--runs", type=int, default=1, help="runs over every page")
    parser.add_argument("--gzip", action="store_true", help="serve HTML, CSS, JS and JSON gzipped")
    parser.add_argument("--page", action="append", help="only this URL path (repeat; 404.html is always run)")
    args = parser.parse_args()

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def send_head(self):
            path = Path(self.translate_path(self.path))
            path = path / "index.html" if path.is_dir() else path
            if not (args.gzip and path.suffix in TEXT and path.is_file()):
                return super().send_head()
            body = gzip.compress(path.read_bytes(), 6)  # the level of tests/browsing.py
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=args.site))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    gaps = {}  # page -> its score minus 404's, one per run
    for run in range(1, args.runs + 1):
        wanted = [page for page in pages() if not args.page or page in {"404.html", *args.page}]
        rows = {page: audit(args.lighthouse, base + page) for page in wanted}
        floor = rows["404.html"]["performance"]
        for page, row in rows.items():
            if gap(row["performance"], floor) is not None:
                gaps.setdefault(page, []).append(gap(row["performance"], floor))
        print(f"\nrun {run}\n")
        print("| page | performance | vs 404 | accessibility | FCP s | LCP s | TBT ms | DOM | KB | failing a11y audits (or error) |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for page, row in rows.items():
            difference = gap(row["performance"], floor)
            print(f"| {page or 'index'} | {row['performance']} | "
                  f"{'' if difference is None else f'{difference:+d}'} "
                  f"| {row['accessibility']} | {row['FCP']:.1f} | {row['LCP']:.1f} | {row['TBT']:.0f} "
                  f"| {row['DOM']:.0f} | {row['bytes']:.0f} | {row['failing a11y']} |", flush=True)
    if args.runs > 1:  # one run says little: the same page moves by several points
        print(f"\nover {args.runs} runs\n\n| page | vs 404, median | lowest | highest |\n|---|---|---|---|")
        for page, gap in gaps.items():
            print(f"| {page or 'index'} | {statistics.median(gap):+g} | {min(gap):+d} | {max(gap):+d} |")
    httpd.shutdown()


if __name__ == "__main__":
    main()
