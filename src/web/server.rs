//! The HTTP side of `serve`: a small HTTP/1.1 server on `std::net` whose
//! every resource is bounded before a client's bytes can claim it.
//!
//! - **Connections**: at most [`Limits::connections`] at once, each on its
//!   own thread; one more is answered 503 at once and closed. A slow client
//!   costs its connection, never a solver.
//! - **Time**: the request line and headers must arrive within
//!   [`Limits::header_time`], the body within [`Limits::body_time`] after
//!   them; every read and write has [`Limits::io_time`]. Past any of them
//!   the connection is answered 408 (or dropped, if it can't be written).
//! - **Size**: headers at most [`MAX_HEAD`] bytes (431), a body at most
//!   [`crate::web::MAX_BODY`] (413, said before a byte of it is read: a
//!   client's `Content-Length` never sizes an allocation); a body without
//!   its length (chunked) is 411; a second `Host`, or a second and
//!   different `Content-Length`, is 400.
//! - **Who may ask**: the `Host` must be the address the server binds to
//!   (and `localhost` for 127.0.0.1; for a wildcard bind, `0.0.0.0` or
//!   `::`, `localhost`, the machine's name and each of its addresses), else
//!   421; a `POST` must come from the
//!   page's own origin, scheme, host and port exactly (any `Origin` header
//!   naming another is 403) and say
//!   `Content-Type: application/json` (else 415). `HEAD` and `OPTIONS` are
//!   answered; other methods are 405.
//! - **Solves**: see [`crate::web::Solver`]: a bounded queue, a deadline
//!   to start, a deadline to finish (the solve is cancelled, not left
//!   running).
//!
//! Every answer closes its connection (`Connection: close`).

use super::{Response, State, handle_bounded};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use swtcg_engine::error::ErrorKind;

/// Most bytes of a request line and headers.
pub const MAX_HEAD: usize = 16 * 1024;

/// The server's bounds.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most connections open at once.
    pub connections: usize,
    /// Most time from a connection's start to the end of its headers.
    pub header_time: Duration,
    /// Most time from the end of the headers to the end of the body.
    pub body_time: Duration,
    /// Most time any one read or write may block.
    pub io_time: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            connections: 64,
            header_time: Duration::from_secs(5),
            body_time: Duration::from_secs(10),
            io_time: Duration::from_secs(5),
        }
    }
}

/// Whether binding to `host` listens on every address of the machine
/// (`0.0.0.0`, `::`): the page is then reachable from the network.
pub fn is_wildcard(host: &str) -> bool {
    host.trim_matches(|c| c == '[' || c == ']')
        .parse::<std::net::IpAddr>()
        .is_ok_and(|ip| ip.is_unspecified())
}

/// The hosts a request may name: the bound address (with and without the
/// port), and `localhost` when bound to the loopback address. A wildcard
/// bind ([`is_wildcard`]) answers on every address of the machine, so it
/// accepts `localhost`, the machine's name and each of its addresses
/// (`machine`: as [`machine_names`] finds them).
pub fn allowed_hosts(host: &str, port: u16, machine: &[String]) -> Vec<String> {
    let mut names = vec![host.to_ascii_lowercase()];
    let wildcard = is_wildcard(host);
    if wildcard || host == "127.0.0.1" || host == "::1" || host.eq_ignore_ascii_case("localhost") {
        names.extend(["localhost".into(), "127.0.0.1".into(), "::1".into()]);
    }
    if wildcard {
        names.extend(machine.iter().map(|m| m.to_ascii_lowercase()));
    }
    let names: Vec<String> = names
        .into_iter()
        .map(|n| {
            if n.contains(':') && !n.starts_with('[') {
                format!("[{n}]")
            } else {
                n
            }
        })
        .collect();
    let mut out = Vec::new();
    for n in names {
        out.push(format!("{n}:{port}"));
        out.push(n);
    }
    out.sort();
    out.dedup();
    out
}

/// The machine's name and the addresses of its network interfaces, for a
/// wildcard bind's [`allowed_hosts`] (none that can't be found).
pub fn machine_names() -> Vec<String> {
    let mut names: Vec<String> = if_addrs::get_if_addrs()
        .map(|list| list.into_iter().map(|i| i.ip().to_string()).collect())
        .unwrap_or_default();
    if let Ok(name) = gethostname::gethostname().into_string()
        && !name.is_empty()
    {
        names.push(name);
    }
    names
}

/// A request as read off the wire.
#[derive(Debug)]
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The target (`/api/attack?power=3`).
    pub url: String,
    /// Its headers, names lowercased.
    pub headers: Vec<(String, String)>,
    /// Its body.
    pub body: Vec<u8>,
}

impl Request {
    /// The value of header `name` (lowercase), if given.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Why a request could not be read: the answer to give (or none when the
/// connection is gone).
#[derive(Debug)]
pub struct Refusal(pub Option<Response>);

fn refuse(status: u16, kind: ErrorKind, message: &str) -> Refusal {
    Refusal(Some(Response::error(status, kind, message)))
}

/// Reads one request from `r` within the limits.
pub fn read_request(r: &mut impl Read, limits: &Limits) -> Result<Request, Refusal> {
    let start = Instant::now();
    let mut buf: Vec<u8> = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    // The head: up to the blank line (CRLF CRLF, or bare LF LF). Only the
    // bytes new since the last read (and the three before them) are
    // searched: the head is scanned once, however it trickles in.
    let mut scanned = 0usize;
    let head_end = loop {
        let from = scanned.saturating_sub(3);
        if let Some(end) = head_end(&buf[from..]) {
            break from + end;
        }
        scanned = buf.len();
        if buf.len() > MAX_HEAD {
            return Err(refuse(
                431,
                ErrorKind::Limit,
                &format!("the request's headers are longer than {MAX_HEAD} bytes"),
            ));
        }
        if start.elapsed() > limits.header_time {
            return Err(refuse(
                408,
                ErrorKind::Limit,
                "the request's headers took too long",
            ));
        }
        match r.read(&mut chunk) {
            Ok(0) if buf.is_empty() => return Err(Refusal(None)),
            Ok(0) => {
                return Err(refuse(
                    400,
                    ErrorKind::Io,
                    "the connection closed inside the request's headers",
                ));
            }
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if timed_out(&e) => {
                return Err(refuse(
                    408,
                    ErrorKind::Limit,
                    "the request's headers took too long",
                ));
            }
            Err(_) => return Err(Refusal(None)),
        }
    };
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut req = httparse::Request::new(&mut headers);
    let parsed = req.parse(&buf[..head_end]);
    match parsed {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) | Err(_) => {
            return Err(refuse(
                400,
                ErrorKind::Syntax,
                "a malformed request line or header",
            ));
        }
    }
    let method = req.method.unwrap_or("").to_string();
    let url = req.path.unwrap_or("").to_string();
    if !url.is_ascii() || !method.is_ascii() {
        // (A target must be percent-encoded: raw bytes above 127 are not
        // one.)
        return Err(refuse(
            400,
            ErrorKind::Syntax,
            "the request line holds bytes that are not ASCII",
        ));
    }
    let headers: Vec<(String, String)> = req
        .headers
        .iter()
        .map(|h| {
            (
                h.name.to_ascii_lowercase(),
                String::from_utf8_lossy(h.value).trim().to_string(),
            )
        })
        .collect();
    // One Host, and one length: a second, different one is a request
    // smuggled past a proxy that reads the other.
    if headers.iter().filter(|(n, _)| n == "host").count() > 1 {
        return Err(refuse(
            400,
            ErrorKind::Conflict,
            "the Host header is given twice",
        ));
    }
    let mut lengths = headers
        .iter()
        .filter(|(n, _)| n == "content-length")
        .map(|(_, v)| v);
    if let Some(first) = lengths.next()
        && lengths.any(|v| v != first)
    {
        return Err(refuse(
            400,
            ErrorKind::Conflict,
            "Content-Length is given twice with different values",
        ));
    }
    let mut request = Request {
        method,
        url,
        headers,
        body: Vec::new(),
    };
    let rest = buf[head_end..].to_vec();
    request.body = read_body(r, &request, rest, limits)?;
    Ok(request)
}

/// Where the head ends (after its blank line), if it has.
fn head_end(buf: &[u8]) -> Option<usize> {
    let crlf = buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4);
    let lf = buf.windows(2).position(|w| w == b"\n\n").map(|i| i + 2);
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn timed_out(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

/// Reads the body `req` announces by its `Content-Length`, `rest`
/// holding the bytes already read past the head. A body sent in another
/// transfer encoding (chunked) is 411: no client of ours sends one.
fn read_body(
    r: &mut impl Read,
    req: &Request,
    rest: Vec<u8>,
    limits: &Limits,
) -> Result<Vec<u8>, Refusal> {
    let max = super::MAX_BODY;
    if req.header("transfer-encoding").is_some() {
        return Err(refuse(
            411,
            ErrorKind::Refused,
            "a body must be sent with its Content-Length (a chunked body is not read)",
        ));
    }
    let n: u64 = match req.header("content-length") {
        None => 0,
        Some(t) => t.parse().map_err(|_| {
            refuse(
                400,
                ErrorKind::Syntax,
                "Content-Length is not a whole number",
            )
        })?,
    };
    // Compared before anything is allocated: the client's number never
    // sizes memory.
    if n > max as u64 {
        return Err(refuse(
            413,
            ErrorKind::Limit,
            &format!("the body is longer than {max} bytes"),
        ));
    }
    let mut src = Deadlined {
        inner: r,
        rest,
        at: 0,
        deadline: Instant::now() + limits.body_time,
    };
    let mut body = vec![0u8; n as usize];
    src.read_exact(&mut body).map_err(body_error)?;
    Ok(body)
}

fn body_error(e: std::io::Error) -> Refusal {
    if timed_out(&e) {
        refuse(408, ErrorKind::Limit, "the request's body took too long")
    } else if e.kind() == std::io::ErrorKind::UnexpectedEof {
        refuse(
            400,
            ErrorKind::Io,
            "the connection closed before the whole body was sent",
        )
    } else {
        Refusal(None)
    }
}

/// A reader of the bytes already read, then of the stream, that fails
/// once its deadline has passed.
struct Deadlined<'a, R: Read> {
    inner: &'a mut R,
    rest: Vec<u8>,
    at: usize,
    deadline: Instant,
}

impl<R: Read> Read for Deadlined<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at < self.rest.len() {
            let n = buf.len().min(self.rest.len() - self.at);
            buf[..n].copy_from_slice(&self.rest[self.at..self.at + n]);
            self.at += n;
            return Ok(n);
        }
        if Instant::now() >= self.deadline {
            return Err(std::io::ErrorKind::TimedOut.into());
        }
        self.inner.read(buf)
    }
}

/// Whether a `Host` value names its port (`localhost:8080`, `[::1]:8080`).
fn has_port(host: &str) -> bool {
    match host.strip_prefix('[') {
        Some(v6) => v6.contains("]:"),
        None => host.contains(':'),
    }
}

/// Checks who may ask: the `Host`, and for a `POST` its origin and type.
pub fn check_request(req: &Request, hosts: &[String]) -> Result<(), Response> {
    let host = req.header("host").unwrap_or("").to_ascii_lowercase();
    if !hosts.contains(&host) {
        return Err(Response::error(
            421,
            ErrorKind::Refused,
            &format!(
                "Host '{}' is not this server's (a page of another site can't drive it)",
                swtcg_engine::error::quote(&host)
            ),
        ));
    }
    if req.method == "POST" {
        if let Some(origin) = req.header("origin") {
            // Exactly the page's origin: scheme, host and port (a browser
            // leaves out only port 80).
            let own = origin.strip_prefix("http://").is_some_and(|o| {
                let o = o.to_ascii_lowercase();
                hosts.contains(&o) && (has_port(&o) || hosts.contains(&format!("{o}:80")))
            });
            if !own {
                return Err(Response::error(
                    403,
                    ErrorKind::Refused,
                    &format!(
                        "a request from another origin ('{}') is refused",
                        swtcg_engine::error::quote(origin)
                    ),
                ));
            }
        }
        let json = req.header("content-type").is_some_and(|t| {
            t.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .eq_ignore_ascii_case("application/json")
        });
        if !json {
            return Err(Response::error(
                415,
                ErrorKind::Refused,
                "a POST body must be Content-Type: application/json",
            ));
        }
    }
    Ok(())
}

/// The answer to one request read off the wire.
pub fn answer(state: &Arc<State>, req: Request, hosts: &[String]) -> Response {
    if let Err(r) = check_request(&req, hosts) {
        return r;
    }
    match req.method.as_str() {
        "GET" | "POST" => handle_bounded(state, &req.method, &req.url, req.body),
        "HEAD" => {
            let mut r = handle_bounded(state, "GET", &req.url, Vec::new());
            r.head_only = true;
            r
        }
        "OPTIONS" => Response {
            status: 204,
            content_type: "text/plain",
            body: Vec::new(),
            head_only: false,
            extra: vec![("Allow", "GET, HEAD, POST, OPTIONS".into())],
        },
        _ => {
            let mut r = Response::error(
                405,
                ErrorKind::Refused,
                &format!(
                    "method '{}' is not served",
                    swtcg_engine::error::quote(&req.method)
                ),
            );
            r.extra.push(("Allow", "GET, HEAD, POST, OPTIONS".into()));
            r
        }
    }
}

/// Writes a response and closes: status line, headers, body (none for
/// `HEAD`).
pub fn write_response(w: &mut impl Write, r: &Response) -> std::io::Result<()> {
    let reason = match r.status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        421 => "Misdirected Request",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "",
    };
    let mut head = format!(
        "HTTP/1.1 {} {reason}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n",
        r.status,
        r.content_type,
        r.body.len()
    );
    for (name, value) in &r.extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    w.write_all(head.as_bytes())?;
    if !r.head_only {
        w.write_all(&r.body)?;
    }
    w.flush()
}

/// Serves one connection: one request, one answer.
fn connection(mut stream: TcpStream, state: Arc<State>, hosts: Arc<Vec<String>>, limits: Limits) {
    let _ = stream.set_read_timeout(Some(limits.io_time));
    let _ = stream.set_write_timeout(Some(limits.io_time));
    let _ = stream.set_nodelay(true);
    let response = match read_request(&mut stream, &limits) {
        Ok(req) => answer(&state, req, &hosts),
        Err(Refusal(Some(r))) => r,
        Err(Refusal(None)) => return,
    };
    let _ = write_response(&mut stream, &response);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    // Let the client read the answer before the socket goes: what it still
    // sends is drained for a moment, within a byte bound and a total time
    // (a client trickling bytes can't hold the connection longer).
    let deadline = Instant::now() + DRAIN_TIME;
    let mut sink = [0u8; 4096];
    let mut drained = 0;
    while drained < 1 << 20 {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let _ = stream.set_read_timeout(Some(left.min(Duration::from_millis(200))));
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// Most time a connection is kept open after its answer, draining what
/// the client still sends.
pub const DRAIN_TIME: Duration = Duration::from_secs(1);

/// Accepts connections on `listener` until the process ends, each on its
/// own thread, at most `limits.connections` at once.
pub fn run(listener: TcpListener, state: Arc<State>, hosts: Vec<String>, limits: Limits) {
    let open = Arc::new(AtomicUsize::new(0));
    let hosts = Arc::new(hosts);
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else {
            // Out of file descriptors (or another accept error): back off
            // rather than spin.
            std::thread::sleep(Duration::from_millis(50));
            continue;
        };
        if open.load(Ordering::SeqCst) >= limits.connections {
            // Full: said at once, without reading the request.
            let _ = stream.set_write_timeout(Some(Duration::from_millis(500)));
            let mut r = Response::error(
                503,
                ErrorKind::Limit,
                "the server has too many connections open; try again",
            );
            r.extra.push(("Retry-After", "1".into()));
            let _ = write_response(&mut stream, &r);
            continue;
        }
        open.fetch_add(1, Ordering::SeqCst);
        let (state, hosts, limits, counter) =
            (state.clone(), hosts.clone(), limits.clone(), open.clone());
        let spawned = std::thread::Builder::new()
            .stack_size(8 << 20)
            .spawn(move || {
                struct Release(Arc<AtomicUsize>);
                impl Drop for Release {
                    fn drop(&mut self) {
                        self.0.fetch_sub(1, Ordering::SeqCst);
                    }
                }
                let _release = Release(counter);
                connection(stream, state, hosts, limits);
            });
        if spawned.is_err() {
            // The thread could not start (its closure, and the connection,
            // are dropped): its place is free again.
            open.fetch_sub(1, Ordering::SeqCst);
        }
    }
}
