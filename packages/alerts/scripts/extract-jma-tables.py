#!/usr/bin/env python3
"""Extracts the sheets the package uses from JMA's code tables (.xls) into plain CSV under data-src/jma/.

Why a Python step: JMA publishes its tables only as legacy .xls (BIFF8), and xlrd (BSD licence) reads them exactly,
while no maintained npm package does. The .xls files are not kept in the repository (3 MB of binaries); the CSVs are,
so the tables can be reviewed line by line and regenerated into JSON by scripts/build-tables.mjs with Node alone.

Run when JMA updates its tables (xml.kishou.go.jp, 技術資料 → 個別コード表 / コード管理表):
  python3 -m venv /tmp/v && /tmp/v/bin/pip install xlrd==2.0.2
  /tmp/v/bin/python scripts/extract-jma-tables.py <AreaInformationCity-AreaForecastLocalM.xls> <地震火山関連コード表.xls>
then `npm run tables -w @pagecast/alerts`.
"""

import csv
import sys
from pathlib import Path

import xlrd

OUT = Path(__file__).resolve().parent.parent / "data-src" / "jma"


def text(cell) -> str:
    # xlrd returns numbers as floats: JMA's codes are integers written as text in some sheets and numbers in others.
    v = cell.value
    if isinstance(v, float):
        return str(int(v)) if v == int(v) else str(v)
    return str(v).strip()


def write(name: str, header: list[str], rows: list[list[str]]) -> None:
    with open(OUT / name, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    print(f"{name}: {len(rows)} rows")


def main(city_xls: str, quake_xls: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)

    # 市町村等 (AreaInformationCity): one row per code; the flag columns say which information uses the code.
    sheet = xlrd.open_workbook(city_xls).sheet_by_name("AreaInformationCity")
    rows = []
    for r in range(3, sheet.nrows):
        c = [text(x) for x in sheet.row(r)]
        if len(c[0]) != 7 or not c[0].isdigit():
            continue
        # columns: code, full name, name, kana, matome area, 気象警報 used, 竜巻, 高潮 target, 波浪 target, ...
        rows.append([c[0], c[1], c[2], c[3], c[4], c[5] or "0", c[7] or "0", c[8] or "0"])
    write(
        "area-information-city.csv",
        ["code", "full_name", "name", "kana", "matome", "weather_warning", "storm_surge", "high_waves"],
        rows,
    )

    quake = xlrd.open_workbook(quake_xls)

    # 地震情報／細分区域 with the 市町村等 in each (sheet 24 lists them per seismic intensity station: deduplicated).
    sheet = quake.sheet_by_name("24")
    seen: dict[str, list[str]] = {}
    for r in range(3, sheet.nrows):
        c = [text(x) for x in sheet.row(r)]
        if not c[0].isdigit() or not c[3].isdigit():
            continue
        seen.setdefault(c[3], [c[0], c[1], c[2], c[3], c[4], c[5]])
    write(
        "earthquake-area-cities.csv",
        ["area_code", "area_name", "area_kana", "city_code", "city_name", "city_kana"],
        sorted(seen.values(), key=lambda x: (int(x[0]), x[3])),
    )

    # 津波予報区 (sheet 31 also lists groups of regions: a prefecture's 結合表現, a coast's 領域表現, kept apart with
    # their members, which name the prefectures a region touches)
    sheet = quake.sheet_by_name("31")
    rows = []
    groups = []
    for r in range(3, sheet.nrows):
        c = [text(x) for x in sheet.row(r)]
        if not c[0].isdigit():
            continue
        if c[3].startswith("津波予報区"):
            rows.append([c[0], c[1], c[2]])
        elif "構成する津波予報区" in c[3]:
            members = c[3].split("構成する津波予報区")[1].strip("）)").split(",")
            groups.append([c[0], c[1], c[3].split("（")[0], " ".join(m.strip() for m in members)])
    write("tsunami-regions.csv", ["code", "name", "kana"], rows)
    write("tsunami-region-groups.csv", ["code", "name", "kind", "members"], groups)

    # 震央地名
    sheet = quake.sheet_by_name("41")
    rows = []
    for r in range(3, sheet.nrows):
        c = [text(x) for x in sheet.row(r)]
        if c[0].isdigit():
            rows.append([c[0], c[1]])
    write("epicentres.csv", ["code", "name"], rows)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
