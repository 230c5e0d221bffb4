//! Matchups for a card pool: arenas, streaming, sharing solves, rankings,
//! and every cell equal to `cards attack` for the same pair.

use swtcg_cards::cards::stack::Switches;
use swtcg_cards::cards::{CardDb, Piece};
use swtcg_cards::matchups::{MatchupRow, Options, SortBy, arenas, duel, rank, stream};
use swtcg_engine::policy::Policy;
use swtcg_engine::sample::Rng;
use swtcg_engine::unit::Arena;

fn db() -> CardDb {
    CardDb::load(&[concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/lackey"
    )])
    .unwrap()
}

fn all(db: &CardDb) -> Vec<MatchupRow> {
    let cards: Vec<_> = db.units().collect();
    let mut rows = Vec::new();
    stream(&cards, &cards, &Options::default(), |r| {
        rows.push(r);
        Ok(())
    })
    .unwrap();
    rows
}

/// Units attack only units of an arena they share (or reach); a unit of
/// two types fights in each; never a card against itself.
#[test]
fn pairs_fight_in_shared_arenas() {
    let db = db();
    let rows = all(&db);
    assert!(rows.len() > 1000, "{}", rows.len());
    // Counted before pairing, exactly.
    let cards: Vec<_> = db.units().collect();
    assert_eq!(swtcg_cards::matchups::count(&cards, &cards), rows.len());
    let some: Vec<_> = cards.iter().copied().step_by(3).collect();
    let mut n = 0;
    stream(&some, &cards, &Options::default(), |_| {
        n += 1;
        Ok(())
    })
    .unwrap();
    assert_eq!(swtcg_cards::matchups::count(&some, &cards), n);
    for r in &rows {
        let a = db.card(&r.attacker).unwrap();
        let d = db.card(&r.defender).unwrap();
        assert_ne!(r.attacker, r.defender);
        assert!(d.arenas.contains(&r.arena), "{r:?}");
        assert!(arenas(a, d).contains(&r.arena), "{r:?}");
    }
    // A unit of two types is listed in both arenas against a unit of both.
    let two: Vec<_> = db.units().filter(|c| c.arenas.len() == 2).collect();
    if let Some(t) = two.first() {
        let arenas_seen: std::collections::BTreeSet<Arena> = rows
            .iter()
            .filter(|r| r.attacker == t.key())
            .map(|r| r.arena)
            .collect();
        assert_eq!(arenas_seen.len(), 2, "{}", t.name);
    }
    // A Space unit never meets a Character.
    assert!(!rows.iter().any(|r| {
        let (a, d) = (db.card(&r.attacker).unwrap(), db.card(&r.defender).unwrap());
        a.arenas == [Arena::Space] && d.arenas == [Arena::Character]
    }));
}

/// Each cell equals `cards attack` for the same pair, exactly, on a random
/// sample of pairs.
#[test]
fn cells_equal_cards_attack() {
    let db = db();
    let rows = all(&db);
    let mut rng = Rng::new(10);
    let mut checked = 0;
    for _ in 0..60 {
        let r = &rows[(rng.next_u64() % rows.len() as u64) as usize];
        let one = |name: &str| Piece {
            cards: vec![db.card(name).unwrap()],
            pilot: None,
            power: None,
            health: None,
        };
        let (a, d) = (one(&r.attacker), one(&r.defender));
        let got = duel(
            &a,
            &d,
            &Switches::default(),
            Some(r.arena),
            &Policy::default(),
        )
        .and_then(|s| s.solve());
        match (got, &r.error) {
            (Ok(rep), None) => {
                let dd = rep.outcome.declared.defending;
                assert_eq!(r.mean.as_ref().unwrap().0, rep.damage(dd).mean(), "{r:?}");
                assert_eq!(r.p_discard.as_ref().unwrap().0, rep.discarded(dd), "{r:?}");
                assert_eq!(
                    r.damage_back.as_ref().unwrap().0,
                    rep.damage(0).mean(),
                    "{r:?}"
                );
                checked += 1;
            }
            (Err(e), Some(m)) => assert_eq!(&e.to_string(), m),
            (got, err) => panic!("{r:?}: {:?} vs {err:?}", got.map(|_| ())),
        }
    }
    assert!(checked >= 50, "{checked}");
}

/// Pairs whose units are the same in everything the attack reads share
/// one solve: the same cards twice (under another set) solve nothing more.
#[test]
fn identical_units_share_one_solve() {
    let dir = tempfile::tempdir().unwrap();
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/lackey/ANH.txt"
    ))
    .unwrap();
    let twice: String = src
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l.to_string()
            } else {
                l.replacen("\tANH\t", "\tANX\t", 1)
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(dir.path().join("ANH.txt"), &src).unwrap();
    std::fs::write(dir.path().join("ANX.txt"), twice).unwrap();
    let one = CardDb::load(&[concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/lackey/ANH.txt"
    )])
    .unwrap();
    let two = CardDb::load(&[dir.path().to_str().unwrap()]).unwrap();
    let count = |db: &CardDb| {
        let cards: Vec<_> = db.units().collect();
        stream(&cards, &cards, &Options::default(), |_| Ok(())).unwrap()
    };
    let (s1, s2) = (count(&one), count(&two));
    assert!(s2.rows > 3 * s1.rows, "{} {}", s1.rows, s2.rows);
    // Same units, same solves (a card against its twin is new: one more
    // pairing of each unit with itself's copy).
    assert!(
        s2.solved <= s1.solved + one.units().count() * 2,
        "{} {}",
        s1.solved,
        s2.solved
    );
}

/// Rankings: each unit against its arena's field, ranked by the column
/// asked; the means are those of the cells, and each unit says how many
/// pairings they rest on.
#[test]
fn rankings_rank_against_the_field() {
    let db = db();
    let cards: Vec<_> = db.units().collect();
    let ranked = rank(
        &cards,
        &cards,
        &Options::default(),
        SortBy::DamageDealt,
        |_, _| {},
    )
    .unwrap();
    assert!(ranked.fields.values().sum::<usize>() >= cards.len());
    assert_eq!(ranked.summary.errors, 0);
    for w in ranked.rows.windows(2) {
        if w[0].arena == w[1].arena {
            assert_eq!(w[1].rank, w[0].rank + 1);
            if let (Some(a), Some(b)) = (w[0].damage_dealt, w[1].damage_dealt) {
                assert!(a >= b);
            } else {
                // Units without the figure go last.
                assert!(w[1].damage_dealt.is_none(), "{w:?}");
            }
        }
    }
    let rows = all(&db);
    // Every ranked unit's means are those of its cells, over the pairings
    // it says.
    for top in &ranked.rows {
        let dealt: Vec<f64> = rows
            .iter()
            .filter(|r| r.attacker == top.unit && r.arena == top.arena)
            .map(|r| r.mean_f64.unwrap())
            .collect();
        let taken: Vec<f64> = rows
            .iter()
            .filter(|r| r.defender == top.unit && r.arena == top.arena)
            .map(|r| r.mean_f64.unwrap())
            .collect();
        assert_eq!(top.attacking, dealt.len(), "{top:?}");
        assert_eq!(top.attacked, taken.len(), "{top:?}");
        assert_eq!(top.missing, 0);
        let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
        for (got, want) in [
            (top.damage_dealt, mean(&dealt)),
            (top.damage_taken, mean(&taken)),
        ] {
            match (got, want) {
                (Some(g), Some(w)) => assert!((g - w).abs() < 1e-9, "{top:?}"),
                (None, None) => assert!(top.note.is_some(), "{top:?}"),
                _ => panic!("{top:?}"),
            }
        }
    }
}

/// A unit that no unit of the field can attack (or that can attack none)
/// has no figures there, said with the reason, never zeros.
#[test]
fn units_with_no_opponent_say_so() {
    let db = CardDb::parse(
        "Name\tType\tPower\tHealth\tText\nTower\tGround\t0\t3\tIon Cannon 3\nFighter\tSpace\t2\t2\t\nTank\tGround\t3\t4\t\n",
    )
    .unwrap();
    let cards: Vec<_> = db.units().collect();
    let ranked = rank(
        &cards,
        &cards,
        &Options::default(),
        SortBy::DamageDealt,
        |_, _| {},
    )
    .unwrap();
    let tower_space = ranked
        .rows
        .iter()
        .find(|r| r.unit == "Tower" && r.arena == Arena::Space)
        .unwrap();
    assert!(tower_space.damage_dealt.unwrap() > 0.0);
    assert_eq!(
        (tower_space.damage_taken, tower_space.p_survive),
        (None, None)
    );
    assert_eq!(tower_space.attacked, 0);
    assert_eq!(
        tower_space.note.as_deref(),
        Some("no unit of the field can attack it")
    );
    let md = swtcg_odds::writers::rankings_markdown(&ranked, &Default::default());
    assert!(md.contains("| — | — |"), "{md}");
    assert!(!md.contains("| 0.000 | 0.0% | 1 / 0"), "{md}");
}

/// No pairing comes back without a result, whatever the size of the shared
/// tables of solves: with blocks of 64, a table of 7 solves and one of 5
/// pairs of signatures (cleared after every block)
/// every row is the row of the default run, and none is missing. (Before
/// issue 18 a cleared table dropped the pairings that had found their solve
/// in it: `not solved`.)
#[test]
fn a_cleared_shared_table_drops_no_pairing() {
    let db = db();
    let cards: Vec<_> = db.units().collect();
    let full = all(&db);
    let mut small = Vec::new();
    let opts = Options {
        max_shared: 7,
        max_pairs: 5,
        block: 64,
        ..Options::default()
    };
    let summary = stream(&cards, &cards, &opts, |r| {
        small.push(r);
        Ok(())
    })
    .unwrap();
    assert_eq!(summary.rows, swtcg_cards::matchups::count(&cards, &cards));
    assert_eq!(small.len(), full.len());
    assert_eq!(
        summary.errors,
        small.iter().filter(|r| r.error.is_some()).count()
    );
    for (a, b) in small.iter().zip(&full) {
        assert_eq!(a, b);
        // A row has its numbers or its reason, never neither.
        assert_eq!(a.mean.is_some(), a.error.is_none(), "{a:?}");
        assert!(a.error.as_deref() != Some("not solved"), "{a:?}");
    }
}

/// A pool of copies: the fixture sets of ANH and AOTC three times under
/// other set codes, the third copy with every printed power and health
/// moved by +1 (so its signatures differ), and a unit no attack can be
/// solved for (power past the bound), so that rows without a result are
/// counted with their multiplicities too.
fn copies_pool() -> (tempfile::TempDir, CardDb) {
    let dir = tempfile::tempdir().unwrap();
    for set in ["ANH", "AOTC"] {
        let text = std::fs::read_to_string(format!(
            "{}/tests/fixtures/lackey/{set}.txt",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        let mut lines = text.lines();
        let header = lines.next().unwrap();
        let cols: Vec<&str> = header.split('\t').collect();
        let at = |n: &str| cols.iter().position(|c| *c == n).unwrap();
        let (set_col, power, health) = (at("Set"), at("Power"), at("Health"));
        for k in 0..3 {
            let mut out = format!("{header}\n");
            for row in text.lines().skip(1) {
                let mut cells: Vec<String> = row.split('\t').map(String::from).collect();
                if k > 0 {
                    cells[set_col] = format!("{set}{k}");
                }
                if k == 2 {
                    for c in [power, health] {
                        if let Ok(v) = cells[c].trim().parse::<u32>() {
                            cells[c] = (v + 1).to_string();
                        }
                    }
                }
                out.push_str(&cells.join("\t"));
                out.push('\n');
            }
            if k == 1 {
                let mut cells = vec![String::new(); cols.len()];
                cells[at("Name")] = "Too Strong".into();
                cells[set_col] = format!("{set}{k}");
                cells[at("Type")] = "Character".into();
                cells[power] = "5000".into();
                cells[health] = "3".into();
                out.push_str(&cells.join("\t"));
                out.push('\n');
            }
            std::fs::write(dir.path().join(format!("{set}{k}.txt")), out).unwrap();
        }
    }
    let db = CardDb::load(&[dir.path().to_str().unwrap()]).unwrap();
    (dir, db)
}

/// Rankings folded from pairs of signatures with their multiplicities are
/// exactly the rankings of the pairings added one by one: every unit's
/// four figures as fractions, and its counts.
#[test]
fn rankings_from_signatures_equal_pair_by_pair() {
    use num_rational::BigRational;
    use std::collections::BTreeMap;
    let (_dir, db) = copies_pool();
    let cards: Vec<_> = db.units().collect();
    let ranked = rank(
        &cards,
        &cards,
        &Options::default(),
        SortBy::default(),
        |_, _| {},
    )
    .unwrap();
    // Fewer signatures than units: two of the three copies share theirs
    // (at most two thirds of the units, and the card past the bound).
    let units: usize = ranked.fields.values().sum();
    let sigs: usize = ranked.signatures.values().sum();
    assert!(
        sigs * 3 <= units * 2 + 3,
        "{sigs} signatures for {units} units"
    );
    // The pairings one by one, summed exactly.
    #[derive(Default)]
    struct S {
        dealt: BigRational,
        discard: BigRational,
        attacking: usize,
        taken: BigRational,
        survive: BigRational,
        attacked: usize,
        missing: usize,
    }
    let mut by: BTreeMap<(String, Arena), S> = BTreeMap::new();
    let mut rows = 0;
    let mut errors = 0;
    stream(&cards, &cards, &Options::default(), |r| {
        rows += 1;
        let one = BigRational::from_integer(1.into());
        match (&r.mean, &r.p_discard) {
            (Some(m), Some(p)) => {
                let a = by.entry((r.attacker.clone(), r.arena)).or_default();
                a.dealt += &m.0;
                a.discard += &p.0;
                a.attacking += 1;
                let d = by.entry((r.defender.clone(), r.arena)).or_default();
                d.taken += &m.0;
                d.survive += one - &p.0;
                d.attacked += 1;
            }
            _ => {
                errors += 1;
                by.entry((r.attacker.clone(), r.arena)).or_default().missing += 1;
                by.entry((r.defender.clone(), r.arena)).or_default().missing += 1;
            }
        }
        Ok(())
    })
    .unwrap();
    assert!(errors > 0, "the pool has rows without a result");
    assert_eq!(ranked.summary.rows, rows);
    assert_eq!(ranked.summary.errors, errors);
    let mut checked = 0;
    for r in &ranked.rows {
        let Some(s) = by.get(&(r.unit.clone(), r.arena)) else {
            assert_eq!(
                (r.attacking, r.attacked, r.missing),
                (0, 0, 0),
                "{}",
                r.unit
            );
            continue;
        };
        let mean =
            |x: &BigRational, n: usize| (n > 0).then(|| x / BigRational::from_integer(n.into()));
        let expected = [
            mean(&s.dealt, s.attacking),
            mean(&s.discard, s.attacking),
            mean(&s.taken, s.attacked),
            mean(&s.survive, s.attacked),
        ];
        let e = &r.exact;
        let got = [&e.damage_dealt, &e.p_discard, &e.damage_taken, &e.p_survive];
        assert_eq!(got.map(Clone::clone), expected, "{}", r.unit);
        assert_eq!(
            (r.attacking, r.attacked, r.missing),
            (s.attacking, s.attacked, s.missing),
            "{}",
            r.unit
        );
        checked += 1;
    }
    // Every unit with a pairing was compared, none left out.
    assert_eq!(checked, by.len());
}

/// The fast listing writes the bytes of the row-by-row writers: CSV as
/// `writers::matchup_csv`, JSON Lines as serde's JSON of each row, rows
/// without a result included; and the same bytes when it keeps one result
/// text at a time (each new result drops the others, which are made again).
#[test]
fn fast_listing_writes_the_rows_bytes() {
    use swtcg_cards::matchups::stream_rows;
    use swtcg_engine::request::Format;
    use swtcg_odds::writers::{ListingWriter, matchup_csv};
    let (_dir, db) = copies_pool();
    let cards: Vec<_> = db.units().collect();
    let rows = all(&db);
    assert!(rows.iter().any(|r| r.error.is_some()));
    for (format, keep) in [
        (Format::Csv, None),
        (Format::Jsonl, None),
        (Format::Csv, Some(1)),
        (Format::Jsonl, Some(1)),
    ] {
        let mut fast: Vec<u8> = Vec::new();
        let mut lw = ListingWriter::new(format, cards.len(), cards.len());
        if let Some(n) = keep {
            lw = lw.keeping(n);
        }
        stream_rows(
            &cards,
            &cards,
            &Options::default(),
            &mut |r| lw.write(&mut fast, &r),
            |_, _| {},
        )
        .unwrap();
        let slow: String = rows
            .iter()
            .map(|r| match format {
                Format::Csv => matchup_csv(r),
                _ => serde_json::to_string(r).unwrap() + "\n",
            })
            .collect();
        let fast = String::from_utf8(fast).unwrap();
        assert_eq!(fast.lines().count(), rows.len(), "{format:?}");
        for (f, s) in fast.lines().zip(slow.lines()) {
            assert_eq!(f, s, "{format:?}");
        }
        assert_eq!(fast, slow, "{format:?}");
    }
}

/// Issue 32, item 11: a pool is refused by the work it really has (its
/// distinct pairs of signatures, and its rows when they are written), not
/// by its pairings at a rate no run reaches: 18,000 copies of three cards
/// (324 million pairings, refused before at 600 s) rank at once, and a
/// listing of them, whose rows alone would take longer than the limit, is
/// still refused before any work, with the estimate said.
#[test]
fn pools_are_refused_by_their_distinct_work() {
    let mut text = String::from("Name\tSet\tType\tPower\tHealth\tSpeed\tText\n");
    for i in 0..6000 {
        for (name, kw) in [("Ann", "Critical Hit 1"), ("Bea", "Parry 1"), ("Cy", "")] {
            text.push_str(&format!("{name}\tS{i}\tCharacter\t4\t5\t30\t{kw}\n"));
        }
    }
    let db = CardDb::parse(&text).unwrap();
    let cards: Vec<_> = db.units().collect();
    assert_eq!(cards.len(), 18_000);
    let w = swtcg_cards::matchups::work(&cards, &cards);
    assert_eq!(w.pairings, 18_000 * 17_999);
    // Three signatures, each meeting every one (itself too), in one arena.
    assert_eq!(w.solves, 9);
    let opts = Options::default();
    let r = rank(&cards, &cards, &opts, SortBy::DamageDealt, |_, _| {}).unwrap();
    assert_eq!(r.rows.len(), 18_000);
    let short = Options {
        time_limit: std::time::Duration::from_secs(2),
        ..Options::default()
    };
    let mut rows = 0;
    let e = stream(&cards, &cards, &short, |_| {
        rows += 1;
        Ok(())
    })
    .unwrap_err();
    assert_eq!(rows, 0);
    assert_eq!(e.kind(), swtcg_engine::error::ErrorKind::Limit);
}
