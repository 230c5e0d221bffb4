//! The local web calculator: `swtcg-odds serve` serves one page (embedded:
//! it loads nothing from the internet) and a JSON API over the library.
//!
//! Every answer comes from the same code as the command line: `GET
//! /api/attack` takes the CLI's flag names and returns exactly what `attack
//! --json` prints. Requests are handled by [`handle`], a pure function of
//! the method, the URL and the body (so that tests and the fuzz harness call
//! it in-process); [`serve`] puts it behind an HTTP server bound to
//! 127.0.0.1 unless told otherwise, with a bounded body, a bounded number
//! of solves at once, a time limit per request, and no path from a request
//! to the file system.
//!
//! ```
//! use swtcg_odds::web::{State, handle};
//! let state = State::new(None);
//! let r = handle(&state, "GET", "/api/attack?power=2&crit=1", b"");
//! assert_eq!(r.status, 200);
//! let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
//! assert!(v["defender_damage"]["mean"].is_string());
//! let r = handle(&state, "GET", "/api/attack?power=-1", b"");
//! assert_eq!(r.status, 422); // a value out of range: see `status_of`
//! let e: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
//! assert_eq!(e["origin"]["param"], "power");
//! ```

use crate::writers::{self, distributions_table};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;
use swtcg_cards::cards::CardDb;
use swtcg_cards::cards::stack::Switches;
use swtcg_cards::matchups::duel;
use swtcg_engine::attack::Side;
use swtcg_engine::dist::Fraction;
use swtcg_engine::error::{Error, ErrorKind, Result};
use swtcg_engine::plan::Plan;
use swtcg_engine::policy::Policy;
use swtcg_engine::report::{AttackReport, DistReport, Distributions};
use swtcg_engine::request::{AttackAnswer, AttackRequest};
use swtcg_engine::request::{Format, Param, ValueKind, units_of};
use swtcg_engine::scenario::Scenario;
use swtcg_engine::unit::Arena;

/// Most states a battle may solve for the web server, which serves several
/// at once (about 0.2 GB each); the command line's limit is the engine's.
const WEB_SOLVED_STATES: u64 = 500_000;

/// The page.
pub const INDEX: &str = include_str!("web/index.html");

/// The page's script: one state object, one request and one render
/// function per mode, the exports fetched from the API.
pub const APP_JS: &str = include_str!("web/app.js");

/// The page's style sheet.
pub const APP_CSS: &str = include_str!("web/app.css");

pub mod server;

/// Most bytes of a request body.
pub const MAX_BODY: usize = 64 * 1024;
/// Most bytes of a request URL.
pub const MAX_URL: usize = 8 * 1024;
/// Most time one request may take.
pub const REQUEST_TIME: Duration = Duration::from_secs(20);

/// A response: status, content type, body and any further headers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The HTTP status.
    pub status: u16,
    /// Its content type.
    pub content_type: &'static str,
    /// Its body.
    pub body: Vec<u8>,
    /// Send the headers only (an answer to `HEAD`).
    pub head_only: bool,
    /// Further headers (`Retry-After`, `Allow`).
    pub extra: Vec<(&'static str, String)>,
}

impl Response {
    fn json<T: Serialize>(value: &T) -> Response {
        Response::json_text(serde_json::to_vec(value).unwrap_or_default())
    }

    /// A 200 with this body.
    fn ok(body: Vec<u8>, content_type: &'static str) -> Response {
        Response {
            status: 200,
            content_type,
            body,
            head_only: false,
            extra: Vec::new(),
        }
    }

    /// One of the page's embedded files.
    fn page(text: &'static str, content_type: &'static str) -> Response {
        Response::ok(text.as_bytes().to_vec(), content_type)
    }

    fn json_text(body: Vec<u8>) -> Response {
        Response::ok(body, "application/json")
    }

    /// An error answer of status `status`: `{"error": message, "kind":
    /// kind, "origin": null}`, as [`error_response`] answers the library's
    /// errors.
    pub fn error(status: u16, kind: ErrorKind, message: &str) -> Response {
        Response::refusal(status, &Error::new(kind, message))
    }

    /// An error's answer with status `status`: `{"error": its words,
    /// "kind": ..., "origin": {...}}`, the words one line of at most
    /// [`swtcg_engine::error::MAX_MESSAGE`] characters (input it quotes is capped
    /// too), so that no request is echoed back whole.
    fn refusal(status: u16, e: &Error) -> Response {
        #[derive(Serialize)]
        struct E<'a> {
            error: String,
            kind: ErrorKind,
            origin: &'a swtcg_engine::error::Origin,
        }
        Response {
            status,
            content_type: "application/json",
            body: serde_json::to_vec(&E {
                error: swtcg_engine::error::one_line(&e.words()),
                kind: e.kind(),
                origin: e.origin(),
            })
            .unwrap_or_default(),
            head_only: false,
            extra: Vec::new(),
        }
    }

    /// A 503 with `Retry-After`.
    fn busy(message: &str) -> Response {
        let mut r = Response::error(503, ErrorKind::Limit, message);
        r.extra.push(("Retry-After", "2".into()));
        r
    }
}

/// What the server holds: the card database given with `--db` (files
/// named relative to the paths given), and the solver's bounds.
#[derive(Debug)]
pub struct State {
    db: Option<CardDb>,
    solver: Solver,
}

impl State {
    /// The server's state, with the card database if any.
    pub fn new(db: Option<CardDb>) -> State {
        State::with_solver(db, Solver::default())
    }

    /// The server's state with the given solver bounds.
    pub fn with_solver(db: Option<CardDb>, solver: Solver) -> State {
        State { db, solver }
    }
}

/// The solver's bounds: at most `slots` solves at once, at most `queue`
/// requests waiting for a slot, each waiting at most `wait` (then 503 with
/// `Retry-After`), each solve stopped at `limit` (cancelled, never left
/// running: its slot is free again at once).
#[derive(Debug)]
pub struct Solver {
    free: Mutex<usize>,
    cv: Condvar,
    waiting: std::sync::atomic::AtomicUsize,
    /// Most solves at once.
    pub slots: usize,
    /// Most requests waiting for a slot.
    pub queue: usize,
    /// Most time a request waits for a slot.
    pub wait: Duration,
    /// Most time one solve may take.
    pub limit: Duration,
}

impl Default for Solver {
    fn default() -> Self {
        let n = std::thread::available_parallelism().map_or(2, |n| n.get());
        Solver::new(n, 4 * n, Duration::from_secs(5), REQUEST_TIME)
    }
}

impl Solver {
    /// A solver with these bounds.
    pub fn new(slots: usize, queue: usize, wait: Duration, limit: Duration) -> Solver {
        Solver {
            free: Mutex::new(slots.max(1)),
            cv: Condvar::new(),
            waiting: std::sync::atomic::AtomicUsize::new(0),
            slots: slots.max(1),
            queue,
            wait,
            limit,
        }
    }

    /// Runs `work` in a slot, with the solve's deadline; a full queue or a
    /// slot not free in time is a 503 with `Retry-After`.
    fn run(&self, work: impl FnOnce() -> Response) -> Response {
        use std::sync::atomic::Ordering;
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.queue {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Response::busy("the server is busy (its queue of solves is full); try again");
        }
        let got = {
            let free = self.free.lock().unwrap_or_else(|e| e.into_inner());
            let (mut free, timeout) = self
                .cv
                .wait_timeout_while(free, self.wait, |f| *f == 0)
                .unwrap_or_else(|e| e.into_inner());
            if timeout.timed_out() && *free == 0 {
                false
            } else {
                *free -= 1;
                true
            }
        };
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        if !got {
            return Response::busy(&format!(
                "the server is busy (no solver free within {} s); try again",
                self.wait.as_secs()
            ));
        }
        struct Release<'a>(&'a Solver);
        impl Drop for Release<'_> {
            fn drop(&mut self) {
                *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
                self.0.cv.notify_one();
            }
        }
        let _release = Release(self);
        let limit = self.limit;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            swtcg_engine::cancel::with_deadline(limit, work)
        }))
        .unwrap_or_else(|_| {
            Response::error(
                500,
                ErrorKind::Internal,
                "the solver failed on this request",
            )
        })
    }
}

/// The HTTP status of an error, from its kind: the request's own fault
/// (400: text that can't be read, an unknown name, something missing or
/// contradictory), input that reads but the rules or bounds refuse (422),
/// a solve stopped at its deadline (503).
pub fn status_of(kind: ErrorKind) -> u16 {
    match kind {
        ErrorKind::Syntax | ErrorKind::Unknown | ErrorKind::Missing | ErrorKind::Conflict => 400,
        ErrorKind::Cancelled => 503,
        ErrorKind::Internal => 500,
        _ => 422,
    }
}

/// The answer to an error: `{"error": its words, "kind": ..., "origin":
/// {...}}`, the status from its kind (with `Retry-After` when busy).
pub fn error_response(e: &Error) -> Response {
    let status = status_of(e.kind());
    let mut r = Response::refusal(status, e);
    if status == 503 {
        r.extra.push(("Retry-After", "2".into()));
    }
    r
}

/// The decoded pairs of a URL's query (`+` a space, bad escapes kept as
/// written, invalid UTF-8 replaced).
fn query(url: &str) -> Vec<(String, String)> {
    let q = url.split_once('?').map_or("", |(_, q)| q);
    form_urlencoded::parse(q.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// The units of an attack query (for combining attacks).
fn units_of_query(
    pairs: &[(String, String)],
) -> Result<(swtcg_engine::unit::Unit, swtcg_engine::unit::Unit)> {
    let mut values = Vec::new();
    for (k, v) in pairs {
        let p = Param::from_name(k).ok_or_else(|| {
            Error::new(
                ErrorKind::Unknown,
                format!(
                    "'{}': combining takes the units' parameters only",
                    swtcg_engine::error::quote(k)
                ),
            )
        })?;
        // Under its name twice, or under its name and its alias.
        if values.iter().any(|(q, _)| *q == p) {
            return Err(Error::new(ErrorKind::Conflict, "given twice").at_param(k, Some(v)));
        }
        let v = if p.kind() == ValueKind::Switch && (v == "true" || v.is_empty()) {
            "on"
        } else {
            v
        };
        values.push((p, p.value(v)?));
    }
    values.sort_by_key(|(p, _)| *p);
    units_of(&values)
}

/// One unit parameter as the page shows it: its name, its label in a
/// player's words without whose it is (the form groups by side), how it
/// is written, whose it is, its help text and the values it may take (the
/// page words a range error from them and the error's typed origin).
#[derive(Serialize)]
struct ParamSpec {
    name: &'static str,
    label: String,
    kind: &'static str,
    side: &'static str,
    doc: &'static str,
    min: i64,
    max: i64,
}

/// `/api/params`: the unit parameters, the choices, whether the server has
/// cards.
#[derive(Serialize)]
struct Spec {
    params: Vec<ParamSpec>,
    choices: &'static [swtcg_engine::request::ChoiceParam],
    cards: bool,
    /// How the charts draw each series ([`crate::plot::STYLES`]).
    chart_styles: &'static [crate::plot::Style],
}

fn params_spec(state: &State) -> Spec {
    Spec {
        params: Param::ALL
            .iter()
            .map(|p| ParamSpec {
                name: p.name(),
                label: p.short_label(),
                kind: match p.kind() {
                    ValueKind::Count => "count",
                    ValueKind::Signed => "signed",
                    ValueKind::Switch => "switch",
                    ValueKind::Health => "health",
                },
                side: match p.side() {
                    Side::Attacking => "attacker",
                    Side::Defending => "defender",
                },
                doc: p.doc(),
                min: p.bounds().0,
                max: p.bounds().1,
            })
            .collect(),
        choices: swtcg_engine::request::CHOICE_PARAMS,
        cards: state.db.is_some(),
        chart_styles: crate::plot::STYLES,
    }
}

/// Refuses scenario and plan files that name files (a request never reaches
/// the file system).
fn no_files(body: &[u8]) -> Result<&str> {
    let text = std::str::from_utf8(body)
        .map_err(|_| Error::new(ErrorKind::Syntax, "the body is not UTF-8 text"))?;
    let v: serde_json::Value = serde_json::from_str(swtcg_engine::input::strip_bom(text))
        .map_err(|e| Error::json("the body", &e))?;
    if v.get("db").is_some() {
        return Err(Error::new(
            ErrorKind::Refused,
            "\"db\": the server's cards are those it was started with (serve --db)",
        ));
    }
    Ok(text)
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CombineRequest {
    #[serde(default)]
    how: Option<String>,
    attacks: Vec<BTreeMap<String, String>>,
}

#[derive(Serialize)]
struct Combined {
    total: DistReport,
    #[serde(skip_serializing_if = "Option::is_none")]
    discarded: Option<Fraction>,
    attacks: Vec<DistReport>,
}

impl Distributions for Combined {
    fn distributions(&self) -> Vec<(String, &DistReport)> {
        let mut out = vec![("total damage".to_string(), &self.total)];
        out.extend(
            self.attacks
                .iter()
                .enumerate()
                .map(|(i, d)| (format!("attack {}", i + 1), d)),
        );
        out
    }
}

fn combine(body: &[u8], format: Option<Format>) -> Result<Response> {
    let req: CombineRequest =
        serde_json::from_slice(body).map_err(|e| Error::json("the body", &e))?;
    if req.attacks.is_empty() || req.attacks.len() > 20 {
        return Err(Error::new(ErrorKind::Limit, "combine 1 to 20 attacks"));
    }
    let pairs: Vec<Vec<(String, String)>> = req
        .attacks
        .iter()
        .map(|a| a.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
        .collect();
    match req.how.as_deref().unwrap_or("convolve") {
        "convolve" => {
            let mut reports = Vec::new();
            let mut laws = Vec::new();
            for p in &pairs {
                let (a, d) = units_of_query(p)?;
                let out = swtcg_engine::attack::attack(&a, &d)?;
                swtcg_engine::cancel::check()?;
                reports.push(DistReport::of(&out.defender_damage));
                laws.push(out.defender_damage.to_big());
            }
            // Independent attacks: the exact law of the sum, its work
            // bounded before it starts and under the solve's deadline.
            let total = swtcg_engine::dist::sum_of(&laws)?;
            Ok(answer(
                &Combined {
                    total: DistReport::of(&total),
                    discarded: None,
                    attacks: reports,
                },
                format,
            ))
        }
        "plan" => {
            let mut attackers = Vec::new();
            let mut defender = None;
            for (i, p) in pairs.iter().enumerate() {
                let (mut a, d) = units_of_query(p)?;
                a.name = format!("attack {}", i + 1);
                defender.get_or_insert(d);
                attackers.push(a);
            }
            let d = defender.expect("one attack at least");
            let n = attackers.len();
            let plan = Plan::new(d, attackers, (0..n).collect(), Policy::default())?;
            let report = plan.solve()?;
            Ok(answer(
                &Combined {
                    total: DistReport::of(&report.total_damage),
                    discarded: report
                        .steps
                        .last()
                        .map(|s| Fraction(s.defender_discarded.clone())),
                    attacks: report
                        .steps
                        .iter()
                        .map(|s| DistReport::of(&s.total_so_far))
                        .collect(),
                },
                format,
            ))
        }
        other => Err(Error::new(
            ErrorKind::Unknown,
            format!(
                "how '{}': convolve or plan",
                swtcg_engine::error::quote(other)
            ),
        )),
    }
}

fn cards_attack(
    state: &State,
    pairs: &[(String, String)],
    format: Option<Format>,
) -> Result<Response> {
    let db = state.db.as_ref().ok_or_else(|| {
        Error::new(
            ErrorKind::Missing,
            "no card database: start the server with --db",
        )
    })?;
    const NAMES: [&str; 4] = ["attacker", "defender", "condition", "arena"];
    for (k, _) in pairs {
        if !NAMES.contains(&k.as_str()) {
            return Err(Error::new(
                ErrorKind::Unknown,
                format!(
                    "'{}' is not a parameter of a card attack ({}){}",
                    swtcg_engine::error::quote(k),
                    NAMES.join(", "),
                    swtcg_engine::error::did_you_mean(k, NAMES)
                ),
            )
            .at_param(k, None));
        }
    }
    let get = |k: &str| pairs.iter().find(|(a, _)| a == k).map(|(_, v)| v.clone());
    let attacker = get("attacker").ok_or_else(|| {
        Error::new(ErrorKind::Missing, "attacker= is required").at_param("attacker", None)
    })?;
    let defender = get("defender").ok_or_else(|| {
        Error::new(ErrorKind::Missing, "defender= is required").at_param("defender", None)
    })?;
    let conditions: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| k == "condition")
        .map(|(_, v)| v.clone())
        .collect();
    let arena = match get("arena") {
        Some(w) => Some(
            <Arena as swtcg_engine::request::Words>::from_word(&w).ok_or_else(|| {
                Error::new(
                    ErrorKind::Unknown,
                    format!(
                        "arena '{}': Space, Ground or Character",
                        swtcg_engine::error::quote(&w)
                    ),
                )
            })?,
        ),
        None => None,
    };
    let a = db.piece(&attacker)?;
    let d = db.piece(&defender)?;
    let switches = Switches::parse(&conditions)?;
    let report = duel(&a, &d, &switches, arena, &Policy::default())?.solve()?;
    Ok(answer(&report.json(), format))
}

/// One card of a unit, as `/api/cards/piece` shows it.
#[derive(Serialize)]
struct PieceCard<'a> {
    /// `top`, `beneath` or `pilot`.
    role: &'static str,
    card: &'a swtcg_cards::cards::Card,
    /// Per ability of the card, in its order: whether it is in play.
    in_play: Vec<bool>,
    /// Per ability: the sides on which it can take part in an attack
    /// (`attacking`, `defending`; empty when neither).
    acts: Vec<Vec<&'static str>>,
}

/// `/api/cards/piece?spec=...`: the cards a unit is made of, as the card
/// language reads its name (`Top + Beneath`, `Unit with Pilot`): each
/// card with its abilities, and for each ability whether it is in play
/// (the top card's abilities, `INSERT:` text, a pilot's grants that fit).
fn cards_piece(state: &State, pairs: &[(String, String)]) -> Result<Response> {
    let db = state.db.as_ref().ok_or_else(|| {
        Error::new(
            ErrorKind::Missing,
            "no card database: start the server with --db",
        )
    })?;
    let spec = pairs
        .iter()
        .find(|(k, _)| k == "spec")
        .map(|(_, v)| v.as_str())
        .ok_or_else(|| {
            Error::new(ErrorKind::Missing, "spec= is required").at_param("spec", None)
        })?;
    let piece = db.piece(spec).map_err(|e| e.at_param("spec", Some(spec)))?;
    let live = piece.abilities();
    let in_play = |card: &swtcg_cards::cards::Card| -> Vec<bool> {
        (0..card.abilities.len())
            .map(|i| {
                live.iter()
                    .any(|s| std::ptr::eq(s.card, card) && s.index == i)
            })
            .collect()
    };
    let roles = piece
        .cards
        .iter()
        .enumerate()
        .map(|(i, c)| (if i == 0 { "top" } else { "beneath" }, *c))
        .chain(piece.pilot.map(|p| ("pilot", p)));
    let cards: Vec<PieceCard> = roles
        .map(|(role, card)| PieceCard {
            role,
            card,
            in_play: in_play(card),
            acts: card
                .abilities
                .iter()
                .map(|a| {
                    [(true, "attacking"), (false, "defending")]
                        .into_iter()
                        .filter(|&(attacking, _)| a.acts(attacking))
                        .map(|(_, w)| w)
                        .collect()
                })
                .collect(),
        })
        .collect();
    Ok(Response::json(
        &serde_json::json!({ "spec": spec, "cards": cards }),
    ))
}

/// Answers one request.
pub fn handle(state: &State, method: &str, url: &str, body: &[u8]) -> Response {
    if url.len() > MAX_URL {
        return Response::error(
            414,
            ErrorKind::Limit,
            &format!("the URL is longer than {MAX_URL} bytes"),
        );
    }
    if body.len() > MAX_BODY {
        return Response::error(
            413,
            ErrorKind::Limit,
            &format!("the body is longer than {MAX_BODY} bytes"),
        );
    }
    let path = url.split('?').next().unwrap_or("");
    let mut pairs = query(url);
    let result = export_format(&mut pairs)
        .and_then(|format| route(state, method, path, &pairs, body, format));
    match result {
        Ok(r) => r,
        Err(e) => error_response(&e),
    }
}

/// Takes `format=` out of a query: `json` (the default), or `csv` or `md`
/// for the distributions of a result as one table
/// ([`crate::writers::distributions_table`]).
fn export_format(pairs: &mut Vec<(String, String)>) -> Result<Option<Format>> {
    let mut format = None;
    let mut bad = None;
    pairs.retain(|(k, v)| {
        if k != "format" {
            return true;
        }
        match <Format as swtcg_engine::request::Words>::from_word(v) {
            Some(f @ (Format::Json | Format::Csv | Format::Markdown)) if format.is_none() => {
                format = Some(f)
            }
            _ => bad = Some(v.clone()),
        }
        false
    });
    match bad {
        Some(v) => Err(Error::new(
            ErrorKind::Unknown,
            format!(
                "format '{}': json, csv or md, given once",
                swtcg_engine::error::quote(&v)
            ),
        )
        .at_param("format", None)),
        None => Ok(format),
    }
}

/// A result in the format asked for: its JSON, or its distributions as
/// CSV or Markdown.
fn answer<T: Serialize + Distributions>(value: &T, format: Option<Format>) -> Response {
    match format {
        None | Some(Format::Json) | Some(Format::Jsonl) => Response::json(value),
        Some(f) => exported(value.distributions(), f),
    }
}

/// Distributions written as CSV or Markdown.
fn exported(list: Vec<(String, &DistReport)>, format: Format) -> Response {
    let t = distributions_table(&list);
    let (body, content_type) = match format {
        Format::Csv => (writers::csv(&t), "text/csv; charset=utf-8"),
        _ => (writers::markdown(&t), "text/markdown; charset=utf-8"),
    };
    Response::ok(body.into_bytes(), content_type)
}

/// The answer of an attack: `attack --json`'s text, or its exports.
fn attack_answer(req: &AttackRequest, format: Option<Format>) -> Result<Response> {
    let answer = req.solve()?;
    Ok(match (format, &answer) {
        (None | Some(Format::Json), _) => Response::json_text(answer.json_text().into_bytes()),
        (Some(f), AttackAnswer::Static { outcome, stun }) => {
            exported(AttackReport::of(outcome, *stun).distributions(), f)
        }
        (Some(f), AttackAnswer::Game(r)) => exported(r.json().distributions(), f),
    })
}

/// What a route's handler reads of its request.
struct Ask<'a> {
    state: &'a State,
    pairs: &'a [(String, String)],
    body: &'a [u8],
    format: Option<Format>,
}

impl Ask<'_> {
    /// `Ok` when the answer is asked as JSON (the routes that have no CSV
    /// or Markdown export).
    fn json_only(&self) -> Result<()> {
        match self.format {
            None | Some(Format::Json) => Ok(()),
            Some(_) => Err(
                Error::new(ErrorKind::Unknown, "format: this answer is JSON only")
                    .at_param("format", None),
            ),
        }
    }

    /// The server's card database, or why there is none.
    fn db(&self) -> Result<&CardDb> {
        self.state.db.as_ref().ok_or_else(|| {
            Error::new(
                ErrorKind::Missing,
                "no card database: start the server with --db",
            )
        })
    }

    /// The posted file of kind `T` (a scenario, a plan, a battle), its
    /// `"card"` units from the server's database when it has one; a file
    /// naming a `"db"` is refused (no request reaches the file system).
    fn posted<T: swtcg_engine::files::FromFile>(&self) -> Result<T> {
        swtcg_cards::cards::files::from_json_in_db(no_files(self.body)?, self.state.db.as_ref())
    }

    /// The value of query parameter `key` (empty when not given).
    fn query(&self, key: &str) -> String {
        self.pairs
            .iter()
            .find(|(k, _)| k == key)
            .map_or(String::new(), |(_, v)| v.clone())
    }
}

/// One route: its method and path, whether it solves (then it runs in
/// the [`Solver`]'s bounded queue, with its deadlines) or answers at once,
/// and its handler.
pub struct Route {
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The path, without the query.
    pub path: &'static str,
    /// Whether it queues for a solver slot.
    pub queues: bool,
    handler: fn(&Ask) -> Result<Response>,
}

/// Every route the server answers, each listed once.
pub const ROUTES: &[Route] = &[
    Route {
        method: "GET",
        path: "/",
        queues: false,
        handler: |_| Ok(Response::page(INDEX, "text/html; charset=utf-8")),
    },
    Route {
        method: "GET",
        path: "/index.html",
        queues: false,
        handler: |_| Ok(Response::page(INDEX, "text/html; charset=utf-8")),
    },
    Route {
        method: "GET",
        path: "/app.js",
        queues: false,
        handler: |_| Ok(Response::page(APP_JS, "text/javascript; charset=utf-8")),
    },
    Route {
        method: "GET",
        path: "/app.css",
        queues: false,
        handler: |_| Ok(Response::page(APP_CSS, "text/css; charset=utf-8")),
    },
    Route {
        method: "GET",
        path: "/api/params",
        queues: false,
        handler: |a| {
            a.json_only()
                .map(|()| Response::json(&params_spec(a.state)))
        },
    },
    Route {
        method: "GET",
        path: "/api/attack",
        queues: true,
        handler: |a| {
            AttackRequest::from_pairs(a.pairs.iter().map(|(k, v)| (k, v)))
                .and_then(|req| attack_answer(&req, a.format))
        },
    },
    // Units given as `"card"` come from the server's --db.
    Route {
        method: "POST",
        path: "/api/scenario",
        queues: true,
        handler: |a| {
            let s: Scenario = a.posted()?;
            Ok(answer(&s.solve()?.json(), a.format))
        },
    },
    Route {
        method: "POST",
        path: "/api/plan",
        queues: true,
        handler: |a| {
            let p: Plan = a.posted()?;
            Ok(answer(&p.solve()?.json(), a.format))
        },
    },
    Route {
        method: "POST",
        path: "/api/battle",
        queues: true,
        handler: |a| {
            a.json_only()?;
            let mut b: swtcg_engine::battle::Battle = a.posted()?;
            b.max_solved = WEB_SOLVED_STATES;
            let policy = a.query("policy") == "1";
            Ok(Response::json(&b.solve()?.json(policy)))
        },
    },
    Route {
        method: "POST",
        path: "/api/combine",
        queues: true,
        handler: |a| combine(a.body, a.format),
    },
    Route {
        method: "GET",
        path: "/api/cards",
        queues: false,
        handler: |a| {
            a.json_only()?;
            let found: Vec<_> = a.db()?.find(&a.query("q")).into_iter().take(200).collect();
            Ok(Response::json(&found))
        },
    },
    Route {
        method: "GET",
        path: "/api/cards/nearest",
        queues: false,
        handler: |a| {
            a.json_only()?;
            let q = a.query("q");
            Ok(Response::json(&serde_json::json!({
                "q": q,
                "nearest": a.db()?.nearest_names(&q, 5),
            })))
        },
    },
    Route {
        method: "GET",
        path: "/api/cards/check",
        queues: true,
        handler: |a| {
            a.json_only()?;
            Ok(Response::json(&swtcg_cards::cards::check::check(a.db()?)))
        },
    },
    Route {
        method: "GET",
        path: "/api/cards/attack",
        queues: true,
        handler: |a| cards_attack(a.state, a.pairs, a.format),
    },
    Route {
        method: "GET",
        path: "/api/cards/piece",
        queues: false,
        handler: |a| {
            a.json_only()?;
            cards_piece(a.state, a.pairs)
        },
    },
];

/// The route of `method` and `path`, if any.
pub fn find_route(method: &str, path: &str) -> Option<&'static Route> {
    ROUTES.iter().find(|r| r.method == method && r.path == path)
}

/// Routes a request.
fn route(
    state: &State,
    method: &str,
    path: &str,
    pairs: &[(String, String)],
    body: &[u8],
    format: Option<Format>,
) -> Result<Response> {
    if let Some(r) = find_route(method, path) {
        return (r.handler)(&Ask {
            state,
            pairs,
            body,
            format,
        });
    }
    if path == "/" || path.starts_with("/api/") {
        return Err(Error::new(
            ErrorKind::Unknown,
            format!(
                "{} {}: not served",
                swtcg_engine::error::quote(method),
                swtcg_engine::error::quote(path)
            ),
        ));
    }
    Ok(Response::error(404, ErrorKind::NotFound, "not found"))
}

/// Answers one request within the bounds: the routes that solve run in the
/// state's [`Solver`] (bounded queue, deadline to start, deadline to
/// finish); the others (the page, `/api/params`, the card search) answer
/// at once. Which is which is said once, in [`ROUTES`].
pub fn handle_bounded(state: &Arc<State>, method: &str, url: &str, body: Vec<u8>) -> Response {
    let path = url.split('?').next().unwrap_or("");
    if find_route(method, path).is_some_and(|r| r.queues) {
        state.solver.run(|| handle(state, method, url, &body))
    } else {
        handle(state, method, url, &body)
    }
}

/// How the server is started (the `serve` command's flags).
#[derive(Clone, Debug, clap::Args)]
pub struct ServeOptions {
    /// The address to listen on (127.0.0.1: this machine only).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The port (0: any free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Open the page in a browser.
    #[arg(long)]
    pub open: bool,
}

/// Starts the server and answers requests until the process ends. Calls
/// `started` with the page's URL once it listens.
pub fn serve(state: State, opts: &ServeOptions, started: impl FnOnce(&str)) -> Result<()> {
    serve_with(state, opts, server::Limits::default(), started)
}

/// [`serve`] with the given connection bounds.
pub fn serve_with(
    state: State,
    opts: &ServeOptions,
    limits: server::Limits,
    started: impl FnOnce(&str),
) -> Result<()> {
    // `[::1]`, the form the server prints, is the address `::1`.
    let bare = opts
        .host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(&opts.host);
    let host_value = swtcg_engine::error::quote_middle(&opts.host, 60);
    let port_value = opts.port.to_string();
    let cannot = |param: &str, why: String| {
        let value = if param == "port" {
            &port_value
        } else {
            &host_value
        };
        Error::new(swtcg_engine::error::ErrorKind::Io, why).at_param(param, Some(value))
    };
    let addrs: Vec<std::net::SocketAddr> = match bare.parse::<std::net::IpAddr>() {
        Ok(ip) => vec![std::net::SocketAddr::new(ip, opts.port)],
        Err(_) => std::net::ToSocketAddrs::to_socket_addrs(&(bare, opts.port))
            .map(|a| a.collect())
            .map_err(|_| {
                cannot(
                    "host",
                    "not an address, nor a name this machine can resolve (give an address such as 127.0.0.1, ::1 or 0.0.0.0, or a name of this machine)".into(),
                )
            })?,
    };
    let listener = std::net::TcpListener::bind(&addrs[..]).map_err(|e| {
        use std::io::ErrorKind as K;
        match e.kind() {
            K::AddrInUse => cannot(
                "port",
                "in use by another program (give another port, or 0 for any free one)".into(),
            ),
            K::AddrNotAvailable => cannot("host", "not an address of this machine".into()),
            K::PermissionDenied => cannot(
                "port",
                "needs privileges this user lacks (give a port above 1023)".into(),
            ),
            _ => cannot("host", format!("cannot listen there: {e}")),
        }
    })?;
    let port = listener.local_addr().map_or(opts.port, |a| a.port());
    // A wildcard bind is opened on this machine as localhost.
    let host = if server::is_wildcard(bare) {
        "localhost".to_string()
    } else if bare.contains(':') {
        format!("[{bare}]")
    } else {
        bare.to_string()
    };
    let url = format!("http://{host}:{port}/");
    started(&url);
    if opts.open {
        for opener in ["xdg-open", "open"] {
            if std::process::Command::new(opener).arg(&url).spawn().is_ok() {
                break;
            }
        }
    }
    let machine = if server::is_wildcard(bare) {
        server::machine_names()
    } else {
        Vec::new()
    };
    let hosts = server::allowed_hosts(bare, port, &machine);
    server::run(listener, Arc::new(state), hosts, limits);
    Ok(())
}
