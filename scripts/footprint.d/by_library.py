"""What mtt's binary carries and what of it is resident, by library.

    by_library.py BINARY [PID]

Without PID: the size of each library's symbols in the binary. With PID (a running mtt started from
BINARY): the binary's pages that are resident in that process, by the library of the symbol on each
page (from /proc/PID/pagemap; root sees which pages are present), then every mapping's resident kB.
Swift symbols are attributed by the module in their mangled name; C and C++ by known prefixes."""
import bisect, collections, re, struct, subprocess, sys

binary = sys.argv[1]
pid = sys.argv[2] if len(sys.argv) > 2 else None


def library(name):
    if name.startswith("icudt"):
        return "ICU data"
    m = re.match(r"_?\$s(\d+)([A-Za-z_]\w*)", name)
    if m:
        return m.group(2)[: int(m.group(1))]
    if name.startswith(("$ss", "_$ss", "$sS", "$sy")):
        return "Swift"
    if "swift" in name.lower():
        return "Swift runtime"
    if re.match(r"(_Z.*icu|u_|ucol|ubrk|uloc|ures|ucnv|udata|utrans|unum|udat|uregex|ucal)", name) or "icu_" in name:
        return "ICU code"
    if name.startswith("_Z"):
        return "C++ (toml++, libstdc++ inlines)"
    if name.startswith("sqlite3"):
        return "SQLite glue"
    return "C / other"


symbols = []
for line in subprocess.run(["nm", "-S", "--defined-only", binary], capture_output=True, text=True).stdout.splitlines():
    parts = line.split()
    if len(parts) == 4:
        symbols.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
symbols.sort()
starts = [s[0] for s in symbols]


def table(counter, unit):
    total = sum(counter.values())
    for name, kb in counter.most_common(18):
        print(f"  {kb / 1024:7.1f} MB  {100 * kb / total:5.1f} %  {name}")
    print(f"  {total / 1024:7.1f} MB  total {unit}")


if pid is None:
    sizes = collections.Counter()
    for _, size, name in symbols:
        sizes[library(name)] += size / 1024
    print(f"{binary}: symbol sizes by library")
    table(sizes, "in symbols")
    sys.exit(0)

mappings = []
for line in open(f"/proc/{pid}/maps"):
    fields = line.split()
    if len(fields) >= 6 and fields[5] == binary:
        low, high = (int(x, 16) for x in fields[0].split("-"))
        mappings.append((low, high, int(fields[2], 16)))
base = min(low - offset for low, high, offset in mappings)
resident = collections.Counter()
with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
    for low, high, _ in mappings:
        pagemap.seek(low // 4096 * 8)
        entries = pagemap.read((high - low) // 4096 * 8)
        for page in range((high - low) // 4096):
            (entry,) = struct.unpack_from("<Q", entries, page * 8)
            if not entry >> 63:
                continue
            address = low + page * 4096 - base
            i = bisect.bisect_right(starts, address) - 1
            found = i >= 0 and symbols[i][0] + max(symbols[i][1], 4096) > address
            resident[library(symbols[i][2]) if found else "no symbol (metadata, unwind tables, relocations)"] += 4
print(f"resident pages of {binary} in process {pid}, by library")
table(resident, "of the binary resident")

per_file = collections.Counter()
name = ""
for line in open(f"/proc/{pid}/smaps"):
    fields = line.split()
    if re.match(r"^[0-9a-f]+-[0-9a-f]+$", fields[0]):
        name = fields[5] if len(fields) >= 6 else "[anonymous: heap, stacks]"
    elif fields[0] == "Rss:":
        per_file[name] += int(fields[1])
print(f"resident memory of process {pid}, by mapping")
table(per_file, "resident (RSS)")
