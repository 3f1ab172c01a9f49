#!/usr/bin/env python3
"""Builds the iplocation plugin's bundled IPv4 -> country table.

Source: the npm package @ip-location-db/geo-whois-asn-country (sapics/ip-location-db), whose IPv4
ranges merge GeoFeed, the five RIRs' WHOIS and ASN data; licensed CC BY 4.0 by the NRO
(https://www.nro.net/). Downloaded from registry.npmjs.org.

The table keeps one country per /16 network: the country holding the most addresses of that /16
(ties: the alphabetically first). 65,536 entries of two ASCII letters ("\\0\\0": no data), gzipped.
Coarse on purpose: small enough to ship, right for most of the address space; give the plugin a
MaxMind-format database (database=...) for city-level or exact answers.

    python3 tools/build_country_table.py [version]
"""
import csv
import gzip
import io
import json
import sys
import tarfile
import urllib.request
from collections import defaultdict

PACKAGE = "@ip-location-db/geo-whois-asn-country"
OUT = "src/main/resources/io/quarry/plugins/iplocation/ipv4-country-by-16.bin.gz"


def main():
    meta = json.load(urllib.request.urlopen(f"https://registry.npmjs.org/{PACKAGE}"))
    version = sys.argv[1] if len(sys.argv) > 1 else meta["dist-tags"]["latest"]
    tarball = urllib.request.urlopen(meta["versions"][version]["dist"]["tarball"]).read()
    with tarfile.open(fileobj=io.BytesIO(tarball)) as tar:
        data = tar.extractfile("package/geo-whois-asn-country-ipv4-num.csv").read().decode()
    counts = [defaultdict(int) for _ in range(65536)]
    for first, last, country in csv.reader(io.StringIO(data)):
        first, last = int(first), int(last)
        while first <= last:
            block = first >> 16
            block_end = min(last, (block << 16) | 0xFFFF)
            counts[block][country] += block_end - first + 1
            first = block_end + 1
    table = bytearray()
    for block in counts:
        if block:
            best = sorted(block.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            table += best.encode("ascii")[:2].ljust(2, b"\0")
        else:
            table += b"\0\0"
    with gzip.GzipFile(OUT, "wb", mtime=0) as out:
        out.write(bytes(table))
    print(f"{PACKAGE} {version}: {sum(1 for b in counts if b)} of 65536 /16 networks have a country")


if __name__ == "__main__":
    main()
