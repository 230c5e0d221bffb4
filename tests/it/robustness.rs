//! Issue 20's second adversarial round, one test per class of defect:
//! card files that could exhaust memory or time, silent empty reads, names
//! that differ only in case, writes that replaced what they shouldn't, a
//! huge cost read as free, messages over their cap, values given twice,
//! unbounded stacks, counts beyond u64, and work refused only as it went.

use crate::common::assert_error;
use std::time::{Duration, Instant};
use swtcg_cards::cards::CardDb;
use swtcg_engine::error::ErrorKind;
use swtcg_odds::cli::run_args;

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// Item 5: Rows that share a name are found by hash: 50,000 of them load in
/// well under a second (they took minutes, quadratically).
#[test]
fn loading_is_linear_in_rows_that_share_a_name() {
    let mut text = String::from("Name\tSet\tType\tPower\tHealth\tText\n");
    for _ in 0..50_000 {
        text.push_str("Same\tX\tCharacter\t3\t3\tParry 1\n");
    }
    let t = Instant::now();
    let db = CardDb::parse(&text).unwrap();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!(db.cards.len(), 1);
    assert_eq!(db.skipped.len(), 49_999);
}

/// Item 6: A wide header is not copied into every row: only the columns the
/// reader uses are kept. A file of 1,000 rows under a 20,000-column header
/// (40 MB) holds less than 1 MB of fields.
#[test]
fn a_wide_header_is_read_in_linear_memory() {
    let cols: Vec<String> = ["Name", "Type", "Power", "Health", "Text"]
        .iter()
        .map(|s| s.to_string())
        .chain((0..20_000).map(|i| format!("Column{i:06}_{}", "x".repeat(40))))
        .collect();
    let mut text = cols.join("\t");
    text.push('\n');
    for i in 0..1000 {
        text.push_str(&format!("Unit{i}\tCharacter\t3\t3\tParry 1"));
        text.push_str(&"\tv".repeat(20_000));
        text.push('\n');
    }
    let rows = match swtcg_cards::cards::read::parse_rows("wide.txt", &text).unwrap() {
        swtcg_cards::cards::read::Parsed::Rows(r) => r,
        _ => panic!("a card list"),
    };
    assert_eq!(rows.len(), 1000);
    let held: usize = rows
        .iter()
        .map(|r| r.fields.iter().map(|f| f.len()).sum::<usize>())
        .sum();
    assert!(held < 1 << 20, "{held} bytes of fields");
    assert_eq!(rows[999].get("Name"), "Unit999");
    assert_eq!(rows[999].row, 1001);
}

/// Item 7: CR-only line ends read as lines (row numbers too); a header-only
/// file is said plainly, and with no card anywhere it is exit 2.
#[test]
fn cr_only_files_read_and_empty_files_are_said() {
    let dir = tmp();
    let cr = dir.path().join("cr.txt");
    std::fs::write(
        &cr,
        "Name\tType\tPower\tHealth\tText\rA\tCharacter\t3\t3\tParry 1\r\rB\tCharacter\t2\t2.5\t\r",
    )
    .unwrap();
    let e = CardDb::load(&[cr.to_str().unwrap()]).unwrap_err();
    assert_error(&e, ErrorKind::Syntax, "row:4:Health");
    std::fs::write(
        &cr,
        "Name\tType\tPower\tHealth\tText\rA\tCharacter\t3\t3\tParry 1\rB\tCharacter\t2\t2\t\r",
    )
    .unwrap();
    let db = CardDb::load(&[cr.to_str().unwrap()]).unwrap();
    assert_eq!(db.cards.len(), 2);
    let header = dir.path().join("header.txt");
    std::fs::write(&header, "Name\tType\tPower\tHealth\n").unwrap();
    let out = run_args([
        "swtcg-odds",
        "cards",
        "--db",
        header.to_str().unwrap(),
        "check",
    ]);
    assert_eq!(out.status, 2);
    assert_eq!(out.stderr.trim_end().lines().count(), 1, "{}", out.stderr);
    assert_error(out.error.as_ref().unwrap(), ErrorKind::NotFound, "none");
    let out = run_args([
        "swtcg-odds",
        "cards",
        "--db",
        header.to_str().unwrap(),
        "--db",
        cr.to_str().unwrap(),
        "check",
    ]);
    assert_eq!(out.status, 0);
    assert!(
        out.stderr.contains("a card list with no card"),
        "{}",
        out.stderr
    );
}

/// Item 8: Names in one set that differ only in case: said at load time, and
/// each addressed by its exact case.
#[test]
fn names_that_differ_only_in_case_are_said_and_addressable() {
    let db = CardDb::parse("Name\tSet\tType\tPower\tHealth\tText\nLuke\tX\tCharacter\t3\t3\t\nluke\tX\tCharacter\t5\t5\t\n").unwrap();
    assert_eq!(db.notes.len(), 1, "{:?}", db.notes);
    assert!(db.notes[0].contains("differ only in case"));
    assert_eq!(db.card("Luke").unwrap().power, Some(3));
    assert_eq!(db.card("luke").unwrap().power, Some(5));
    assert!(db.card("LUKE").is_err());
}

#[cfg(unix)]
fn mode(p: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// Item 9, writes: a new file gets 0666 less the umask (here 0644 or
/// stricter, never 0600 by accident); an existing file keeps its mode; a
/// symlink is written through; a hard link still sees the new content; a
/// device or FIFO is written to, never replaced; a folder or a read-only
/// file is refused. Item 10: a listing streams to its file.
#[cfg(unix)]
#[test]
fn writes_never_replace_what_they_should_not() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tmp();
    let p = |n: &str| dir.path().join(n);
    let write = |path: &std::path::Path| {
        run_args([
            "swtcg-odds",
            "attack",
            "--power",
            "3",
            "--plot",
            path.to_str().unwrap(),
        ])
    };
    // New: the umask's mode (the test process's umask is the usual 022 or
    // stricter; a file made by tempfile would be 0600).
    let out = write(&p("new.svg"));
    assert_eq!(out.status, 0, "{}", out.stderr);
    let umask_mode = {
        let probe = p("probe");
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&probe)
            .unwrap();
        mode(&probe)
    };
    assert_eq!(mode(&p("new.svg")), umask_mode);
    // Existing: keeps its mode.
    std::fs::write(p("kept.svg"), "old").unwrap();
    std::fs::set_permissions(p("kept.svg"), std::fs::Permissions::from_mode(0o640)).unwrap();
    assert_eq!(write(&p("kept.svg")).status, 0);
    assert_eq!(mode(&p("kept.svg")), 0o640);
    assert!(
        std::fs::read_to_string(p("kept.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    // A symlink: written through, still a symlink.
    std::fs::write(p("target.svg"), "old").unwrap();
    std::os::unix::fs::symlink(p("target.svg"), p("link.svg")).unwrap();
    assert_eq!(write(&p("link.svg")).status, 0);
    assert!(
        std::fs::symlink_metadata(p("link.svg"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read_to_string(p("target.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    // A hard link: both names see the new content.
    std::fs::write(p("a.svg"), "old").unwrap();
    std::fs::hard_link(p("a.svg"), p("b.svg")).unwrap();
    assert_eq!(write(&p("a.svg")).status, 0);
    assert!(
        std::fs::read_to_string(p("b.svg"))
            .unwrap()
            .starts_with("<svg")
    );
    // /dev/null: written to, still a device.
    assert_eq!(write(std::path::Path::new("/dev/null")).status, 0);
    assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
    // A FIFO: written to, still a FIFO (read by another thread).
    let fifo = p("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let f = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(f).unwrap())
    };
    assert_eq!(write(&fifo).status, 0);
    assert!(reader.join().unwrap().starts_with("<svg"));
    assert!(!std::fs::metadata(&fifo).unwrap().is_file());
    // A folder, a read-only file: refused, untouched.
    assert_eq!(write(dir.path()).status, 2);
    std::fs::write(p("ro.svg"), "keep").unwrap();
    std::fs::set_permissions(p("ro.svg"), std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = write(&p("ro.svg"));
    assert_eq!(out.status, 2);
    assert_error(out.error.as_ref().unwrap(), ErrorKind::Io, "none");
    assert_eq!(std::fs::read_to_string(p("ro.svg")).unwrap(), "keep");
    // No temporary file is left beside them.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // A listing to a file: the same bytes as to standard output.
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/lackey/ANH.txt");
    let to_file = run_args([
        "swtcg-odds",
        "matchups",
        "--db",
        fixtures,
        "--format",
        "csv",
        "--output",
        p("m.csv").to_str().unwrap(),
    ]);
    assert_eq!(to_file.status, 0, "{}", to_file.stderr);
    let to_out = run_args([
        "swtcg-odds",
        "matchups",
        "--db",
        fixtures,
        "--format",
        "csv",
    ]);
    assert_eq!(std::fs::read_to_string(p("m.csv")).unwrap(), to_out.stdout);
}

/// Items 11 to 13: a cost too large to read is an error, never free; the message
/// cap counts what is printed; a value given twice is refused; a stack is
/// bounded before any lookup; a count beyond u64 is quoted as written; a
/// refused table costs no memory; a plan beyond its bound is refused before
/// its first step.
#[test]
fn numbers_and_messages() {
    let e = swtcg_engine::keywords::parse("Pay 99999999999 Force -> Evade 2").unwrap_err();
    assert_error(&e, ErrorKind::Syntax, "none");
    // A path of control characters: one short line.
    let path = "\u{1}".repeat(300);
    let out = run_args(["swtcg-odds", "scenario", &path]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr.chars().count() <= 320,
        "{} characters",
        out.stderr.chars().count()
    );
    let out = run_args([
        "swtcg-odds",
        "serve",
        "--host",
        &"\u{7}".repeat(300),
        "--port",
        "1",
    ]);
    assert_eq!(out.status, 2);
    assert!(
        out.stderr.chars().count() <= 320,
        "{} characters",
        out.stderr.chars().count()
    );
    let db = CardDb::parse("Name\tType\tPower\tHealth\tText\nA\tCharacter\t3\t3\t\n").unwrap();
    let e = db.piece("A[power=5,power=6]").unwrap_err();
    assert_error(&e, ErrorKind::Conflict, "none");
    let t = Instant::now();
    let many = vec!["A"; 300_000].join(" + ");
    let e = db.piece(&many).unwrap_err();
    assert_error(&e, ErrorKind::Rules, "none");
    assert!(e.to_string().chars().count() <= 320);
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    let e = swtcg_odds::cli::parse_counts(r#"{"0": 18446744073709551616}"#).unwrap_err();
    assert_error(&e, ErrorKind::Range, "none");
    let t = Instant::now();
    let out = run_args([
        "swtcg-odds",
        "table",
        "--power",
        "500..599",
        "--crit",
        "0..99",
        "--parry",
        "0..19",
    ]);
    assert_eq!(out.status, 2);
    assert_error(out.error.as_ref().unwrap(), ErrorKind::Limit, "none");
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    // A 20-step plan at power 40 with Lucky 3 on both sides: refused at
    // once (it ran 30 s before issue 20).
    let dir = tmp();
    let plan = dir.path().join("p.json");
    let steps = vec!["\"A\""; 20].join(",");
    std::fs::write(&plan, format!(r#"{{"defender": {{"name": "D", "health": 40, "keywords": ["Lucky 3"]}}, "attackers": [{{"name": "A", "power": 40, "keywords": ["Lucky 3", "Critical Hit 2"]}}], "steps": [{steps}]}}"#)).unwrap();
    let t = Instant::now();
    let out = run_args(["swtcg-odds", "plan", plan.to_str().unwrap()]);
    assert_eq!(out.status, 2);
    assert_error(out.error.as_ref().unwrap(), ErrorKind::Limit, "none");
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    // 20 steps against health 1000 with damage back: refused at once by the
    // bound.
    std::fs::write(&plan, format!(r#"{{"defender": {{"name": "D", "health": 1000, "keywords": ["Retaliate 3"]}}, "attackers": [{{"name": "A", "power": 20, "health": 1000, "keywords": ["Critical Hit 2"]}}], "steps": [{steps}]}}"#)).unwrap();
    let t = Instant::now();
    let out = run_args(["swtcg-odds", "plan", plan.to_str().unwrap()]);
    assert_eq!(out.status, 2);
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
}

/// Combining attacks (the web's `convolve`) is bounded before it starts
/// and stops at the solve's deadline: four laws of 2,000 outcomes over
/// 2,600-bit denominators (power 1000 with Critical Hit 1000, which ran
/// 80 s) are refused at once with the estimate said; a sum under the
/// bound stops with `cancelled` once its deadline has passed; the sum is
/// exact when it runs.
#[test]
fn combining_attacks_is_bounded_and_cancellable() {
    use num_bigint::BigUint;
    use swtcg_engine::dist::{Dist, sum_of};
    use swtcg_engine::error::ErrorKind;
    let big = BigUint::from(6u32).pow(1000);
    // A law of 2,000 outcomes over 6^1000: weights that sum to it.
    let n = 2000u32;
    let mut weights = vec![&big / n; n as usize];
    weights[0] += &big % n;
    let heavy: Dist<BigUint> = Dist::from_weights(0, weights, big.clone());
    assert!(heavy.sums_to_one());
    let start = std::time::Instant::now();
    let e = sum_of(&vec![heavy.clone(); 4]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Limit, "{e}");

    assert!(start.elapsed() < std::time::Duration::from_secs(1));
    // Under the bound, past the deadline: cancelled, not a wrong law.
    let e = swtcg_engine::cancel::with_deadline(std::time::Duration::ZERO, || {
        sum_of(&[heavy.clone(), heavy.clone()])
    })
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Cancelled);
    // Exact when it runs: two dice sum to 7 on average, 6/36 of the time 7.
    let die: Dist<BigUint> = Dist::uniform(1, 6);
    let two = sum_of(&[die.clone(), die]).unwrap();
    assert!(two.sums_to_one());
    assert_eq!(two.weight(7) * 6u32, two.denom().clone());
}

/// Issue 32, items 4 to 6: what one card can hold is bounded (a text of at
/// most 2,000 characters in at most 24 abilities; names of at most 200),
/// each with a per-row error naming the file, row and column; within the
/// bounds, reading grows about linearly with a repeated phrase, from 4×
/// to 16× (it was super-linear: 42 s for 7.6 KB of "When THIS attacks, ";
/// and the clause spans were exponential in a clause's `THIS`: 5.6 s for
/// 100 of them).
#[test]
fn the_reader_is_bounded_and_linear_in_its_input() {
    let header = "Name\tSet\tType\tPower\tHealth\tText\n";
    let file = |phrase: &str, reps: usize, cards: usize| -> String {
        let mut t = String::from(header);
        for i in 0..cards {
            t.push_str(&format!(
                "Bob {i} (A)\tX\tCharacter\t3\t3\t{}Bob gets +1 power.\n",
                phrase.repeat(reps)
            ));
        }
        t
    };
    // Past the bounds: one clear error each.
    for (text, kind, at) in [
        (
            file("When Bob attacks, ", 400, 1),
            ErrorKind::Syntax,
            "row:2:Text",
        ),
        (file("Armor | ", 30, 1), ErrorKind::Syntax, "row:2:Text"),
        (
            format!("{header}{}\tX\tCharacter\t3\t3\t\n", "N".repeat(300)),
            ErrorKind::Syntax,
            "row:2:Name",
        ),
    ] {
        let e = CardDb::parse(&text).unwrap_err();
        assert_error(&e, kind, at);
    }
    // Within them: four times the text (4x to 16x of a phrase, close to
    // the bound) takes at most about four times the time (a quadratic
    // reading took 7x), and twice the cards twice the time. The best of
    // nine rounds, the three texts timed in turn in each round, so that a
    // busy spell of the machine slows all three alike.
    let times = |texts: [&str; 3]| {
        let mut best = [f64::INFINITY; 3];
        for _ in 0..9 {
            for (b, text) in best.iter_mut().zip(texts) {
                let start = Instant::now();
                CardDb::parse(text).unwrap();
                *b = b.min(start.elapsed().as_secs_f64());
            }
        }
        best
    };
    for phrase in [
        "When Bob attacks, ",
        "When THIS attacks, ",
        "he gets +1 power and ",
    ] {
        let reps = (1800 / phrase.len()) / 16;
        let texts = [
            file(phrase, 4 * reps, 40),
            file(phrase, 16 * reps, 40),
            file(phrase, 16 * reps, 80),
        ];
        // Timed again (up to three times in all) while a ratio is past its
        // bound: a busy spell of the machine passes, a reading that grows
        // faster than its input is past the bound every time.
        let (mut text, mut cards) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..3 {
            let [four, sixteen, more] = times([&texts[0], &texts[1], &texts[2]]);
            (text, cards) = (sixteen / four, more / sixteen);
            eprintln!("{phrase:?}: 4x the text: {text:.2}x the time, 2x the cards: {cards:.2}x");
            if text < 5.0 && cards < 3.3 {
                break;
            }
        }
        assert!(
            text < 5.0,
            "{phrase:?}: 4x the text took {text:.2}x the time"
        );
        // Linear is 2x, quadratic 4x; a busy machine's noise has reached 3.2x.
        assert!(
            cards < 3.3,
            "{phrase:?}: 2x the cards took {cards:.2}x the time"
        );
    }
}

/// The peak resident memory (VmHWM, KB) of `bin args`, its standard
/// output read and dropped as it comes: polled from `/proc` as it runs.
fn peak_kb(args: &[&str]) -> u64 {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_swtcg-odds"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let poll = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut peak = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                if let Ok(s) = std::fs::read_to_string(&status)
                    && let Some(l) = s.lines().find(|l| l.starts_with("VmHWM:"))
                {
                    let kb = l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap();
                    peak = peak.max(kb);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            peak
        })
    };
    let mut out = child.stdout.take().unwrap();
    let (mut buf, mut bytes) = (vec![0u8; 1 << 16], 0usize);
    loop {
        match out.read(&mut buf).unwrap() {
            0 => break,
            n => bytes += n,
        }
    }
    assert!(child.wait().unwrap().success());
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(bytes > 0);
    poll.join().unwrap()
}

/// Issue 32, item 7: `matchups --page` streams its rows as the listing
/// does. Four copies of the fixture sets (16 times the rows: 185,648 rows,
/// 16 MB of page) peak within 20 MB of one copy; the page kept every row
/// and the whole text before (four copies of the shared sets peaked at
/// 2.1 GB).
#[test]
fn the_matchups_page_streams_in_constant_memory() {
    if !std::path::Path::new("/proc/self/status").exists() {
        panic!("this test reads peak memory from /proc (Linux)");
    }
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/lackey");
    let dir = tmp();
    for k in 0..4 {
        for f in std::fs::read_dir(fixture).unwrap() {
            let f = f.unwrap().path();
            let text = std::fs::read_to_string(&f).unwrap();
            let mut lines = text.lines();
            let header = lines.next().unwrap();
            let set = header.split('\t').position(|c| c == "Set").unwrap();
            let mut out = format!("{header}\n");
            for row in lines {
                let mut cells: Vec<&str> = row.split('\t').collect();
                let code = format!("C{k}{}", cells[set]);
                cells[set] = &code;
                out.push_str(&cells.join("\t"));
                out.push('\n');
            }
            let name = f.file_name().unwrap().to_str().unwrap().to_string();
            std::fs::write(dir.path().join(format!("{k}-{name}")), out).unwrap();
        }
    }
    // Measured again (up to three times in all, the least peak of each
    // kept) while four copies are past the bound: a busy machine's spell
    // (the allocator's pages as threads happen to run: one run of CI saw
    // 104 MB against 82 MB, where every other run saw 84 to 88 MB) passes;
    // a page that grows with its rows is past the bound every time.
    let (mut one, mut four) = (u64::MAX, u64::MAX);
    for _ in 0..3 {
        one = one.min(peak_kb(&["matchups", "--db", fixture, "--page"]));
        four = four.min(peak_kb(&[
            "matchups",
            "--db",
            dir.path().to_str().unwrap(),
            "--page",
        ]));
        eprintln!("peak: one copy {one} KB, four copies {four} KB");
        if four < one + 20_000 {
            break;
        }
    }
    assert!(
        four < one + 20_000,
        "one copy {one} KB, four copies {four} KB"
    );
}

/// Issue 32, item 9: a file with other hard links is rewritten in place
/// only when the disk has room for what it grows by; else it is left
/// whole (it was truncated first, and a full disk left both links cut
/// mid-row), and the command's whole output is kept beside it.
#[test]
fn a_file_rewritten_in_place_is_never_cut_by_a_full_disk() {
    use swtcg_odds::output::copy_in;
    let dir = tmp();
    let (target, link, new) = (
        dir.path().join("out.csv"),
        dir.path().join("link.csv"),
        dir.path().join("new.tmp"),
    );
    std::fs::write(&target, "old,1\n").unwrap();
    std::fs::hard_link(&target, &link).unwrap();
    let text = "new,row\n".repeat(1000);
    std::fs::write(&new, &text).unwrap();
    // Too little room: refused, before the target is touched.
    for free in [0, 8_000, 1 << 20] {
        let e = copy_in(&new, &target, free, "out.csv").unwrap_err();
        assert_eq!(e.kind(), swtcg_engine::error::ErrorKind::Io);

        for p in [&target, &link] {
            assert_eq!(std::fs::read_to_string(p).unwrap(), "old,1\n");
        }
    }
    // Room enough: both links see the whole new content.
    copy_in(&new, &target, 2 << 20, "out.csv").unwrap();
    for p in [&target, &link] {
        assert_eq!(std::fs::read_to_string(p).unwrap(), text);
    }
    // Shrinking needs no room.
    std::fs::write(&new, "short\n").unwrap();
    copy_in(&new, &target, 0, "out.csv").unwrap();
    assert_eq!(std::fs::read_to_string(&link).unwrap(), "short\n");
}

/// Issue 32, minor: a file that says it is regular but whose reads wait
/// (`/proc/kmsg`) is refused at once, never waited on; so are a FIFO and
/// a device (`--db /proc/kmsg` hung).
#[test]
fn a_file_whose_reads_wait_is_refused_at_once() {
    let dir = tmp();
    let fifo = dir.path().join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for path in ["/proc/kmsg", fifo.to_str().unwrap(), "/dev/zero"] {
        let path = path.to_string();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(swtcg_engine::input::read_file(&path).map(|t| t.len()));
        });
        let got = rx
            .recv_timeout(Duration::from_secs(5))
            .unwrap_or_else(|_| panic!("reading waited"));
        let e = got.unwrap_err();
        assert_eq!(e.kind(), swtcg_engine::error::ErrorKind::Io, "{e}");
    }
}

/// Issue 32 (found by the grown fuzz harness): a Lucky stage's work is
/// counted with its starts (Backfire splits the roll by a natural 3) and
/// the 128-bit words of its weights (past 49 dice): Overload 100 against
/// Lucky 6 with Backfire and Double Damage ran 7 s (24 s on a busy
/// machine), and is now refused at once with the count; the same Lucky
/// over 106 dice without the split is still solved.
#[test]
fn a_lucky_stage_counts_its_starts_and_words() {
    let t = Instant::now();
    let ran = run_args([
        "swtcg-odds",
        "attack",
        "--overload",
        "100",
        "--power",
        "6",
        "--defender-lucky",
        "6",
        "--backfire",
        "5",
        "--double-damage",
    ]);
    assert_eq!(ran.status, 2, "{}", ran.stderr);
    assert_error(ran.error.as_ref().unwrap(), ErrorKind::Limit, "none");
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    let ran = run_args([
        "swtcg-odds",
        "attack",
        "--power",
        "40",
        "--defender-lucky",
        "6",
        "--json",
    ]);
    assert_eq!(ran.status, 0, "{}", ran.stderr);
}

/// Issue 33: the error is one pointer wide (its payload boxed), and keeps
/// an I/O or JSON cause as its `source()`.
#[test]
fn an_error_is_small_and_keeps_its_cause() {
    use std::error::Error as _;
    use swtcg_engine::error::{Error, ErrorKind};
    assert_eq!(std::mem::size_of::<Error>(), std::mem::size_of::<usize>());
    assert_eq!(
        std::mem::size_of::<swtcg_engine::error::Result<u64>>(),
        2 * std::mem::size_of::<usize>()
    );
    let e = swtcg_engine::input::read_file("/no/such/file.json").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io);
    let cause = e.source().expect("an I/O cause");
    let io = cause
        .downcast_ref::<std::io::Error>()
        .expect("an io::Error");
    assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
    let e = swtcg_engine::scenario::Scenario::from_json("{\"attacker\": ").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert!(e.source().is_some(), "{e:?}");
    // Equal errors say the same of the same, whatever their causes.
    let missing = |path: &str| swtcg_engine::input::read_file(path).unwrap_err();
    assert_eq!(missing("/no/such/file.json"), missing("/no/such/file.json"));
    assert_ne!(
        missing("/no/such/file.json"),
        missing("/no/such/other.json")
    );
}

/// Issue 33: an error's `Display` names a parameter as the library knows
/// it; the command line adds its flag's `--` (`Error::with_flags`), the web
/// page and Python name it from the origin.
#[test]
fn an_errors_display_knows_no_flags() {
    let e = swtcg_engine::request::AttackRequest::from_pairs([("power", "-1")])
        .and_then(|r| r.solve().map(|_| ()))
        .unwrap_err();
    assert_eq!(e.kind(), swtcg_engine::error::ErrorKind::Range);
    assert_eq!(
        e.origin(),
        &swtcg_engine::error::Origin::Param {
            param: "power".into(),
            value: Some("-1".into())
        }
    );
    let shown = e.to_string();
    assert!(shown.starts_with("power -1: "), "{shown}");
    assert!(!shown.contains("--"), "{shown}");
    assert_eq!(e.with_flags(), format!("--{shown}"));
    let ran = run_args(["swtcg-odds", "attack", "--power", "-1"]);
    assert_eq!(ran.stderr, format!("error: --{shown}\n"));
}

/// A table's rows are solved on worker threads, and what stops the caller
/// stops them: its deadline (the web's) and its front-end's question
/// (Python's Ctrl-C, which only the main thread sees). They ran to the end
/// before: 120 rows of Lucky 3 against Lucky 3 take about 2 s.
#[test]
fn a_table_stops_as_one_at_its_callers_deadline_or_question() {
    use std::time::{Duration, Instant};
    use swtcg_engine::cancel::{with_deadline, with_poll};
    use swtcg_engine::error::ErrorKind;
    use swtcg_engine::request::Param;
    use swtcg_engine::table::Grid;
    let grid = Grid::new()
        .with(Param::Power, (40..=45).collect())
        .with(Param::Crit, (0..=19).collect())
        .with(Param::Lucky, vec![3])
        .with(Param::DefenderLucky, vec![3]);
    let start = Instant::now();
    let e = with_deadline(Duration::from_millis(100), || grid.rows()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Cancelled, "{e}");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    fn stop() -> bool {
        true
    }
    let start = Instant::now();
    let e = with_poll(stop, || grid.rows()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Cancelled, "{e}");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    // Without either, a small table is whole.
    let small = Grid::new()
        .with(Param::Power, (1..=4).collect())
        .with(Param::Lucky, vec![1]);
    assert_eq!(small.rows().unwrap().len(), 4);
}
