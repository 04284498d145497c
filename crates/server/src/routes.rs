//! The service's paths, defined once: which method each takes, who answers it (the core's
//! operations, the front itself, or the Python pages) and whether it needs the token.

/// Who answers a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A core operation on the JSON body ([`crate::Ops`]).
    Op(Op),
    /// `GET /v1/rules` (no name) and `GET /v1/rules/{name}`: the core's `rules` operation.
    Rules,
    /// Liveness, answered by the front.
    Health,
    /// The Prometheus text, answered by the front.
    Metrics,
    /// A page, the OpenAPI document or the sign-in: the Python side ([`crate::Pages`]).
    Page,
}

/// The core operations the front serves.
pub use chinese_poker::service::Op;

/// One route: a path (a trailing `{name}` matches one segment), its method and how it is
/// answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// The path as the OpenAPI document writes it.
    pub path: &'static str,
    /// `GET` or `POST`.
    pub method: &'static str,
    /// The route's name in the metrics, the access log and the pages' dispatch.
    pub name: &'static str,
    /// Who answers.
    pub answer: Answer,
    /// Whether the token is needed (when the server has one).
    pub auth: bool,
    /// A page a browser opens: the sign-in cookie stands for the token, and a visitor without
    /// it is shown the sign-in form.
    pub page: bool,
}

const fn route(
    path: &'static str,
    method: &'static str,
    name: &'static str,
    answer: Answer,
) -> Route {
    Route {
        path,
        method,
        name,
        answer,
        auth: true,
        page: false,
    }
}

/// Every route, in the order the OpenAPI document lists them.
pub const ROUTES: &[Route] = &[
    route("/v1/solve", "POST", "solve", Answer::Op(Op::Solve)),
    route("/v1/settle", "POST", "settle", Answer::Op(Op::Settle)),
    route("/v1/naturals", "POST", "naturals", Answer::Op(Op::Naturals)),
    route("/v1/rules", "GET", "rules", Answer::Rules),
    route("/v1/rules/{name}", "GET", "rule_set", Answer::Rules),
    Route {
        auth: false,
        ..route("/healthz", "GET", "healthz", Answer::Health)
    },
    route("/metrics", "GET", "metrics", Answer::Metrics),
    route("/openapi.json", "GET", "openapi", Answer::Page),
    Route {
        page: true,
        ..route("/docs", "GET", "docs", Answer::Page)
    },
    Route {
        page: true,
        ..route("/", "GET", "page", Answer::Page)
    },
    Route {
        auth: false,
        ..route("/login", "GET", "login", Answer::Page)
    },
    Route {
        auth: false,
        ..route("/login", "POST", "login", Answer::Page)
    },
];

/// The metrics' name of a request that matched no route.
pub const OTHER: &str = "other";

/// What a method and path find.
#[derive(Debug, PartialEq)]
pub enum Found<'p> {
    /// The route, and the `{name}` segment if its path has one.
    Route(&'static Route, Option<&'p str>),
    /// The path exists for other methods: these (the `Allow` header).
    WrongMethod(Vec<&'static str>),
    /// No such path.
    NotFound,
}

fn matches<'p>(pattern: &str, path: &'p str) -> Option<Option<&'p str>> {
    match pattern.strip_suffix("{name}") {
        Some(prefix) => {
            let rest = path.strip_prefix(prefix)?;
            (!rest.is_empty() && !rest.contains('/')).then_some(Some(rest))
        }
        None => (pattern == path).then_some(None),
    }
}

/// The route of `method` and `path`.
pub fn find<'p>(method: &str, path: &'p str) -> Found<'p> {
    let mut allow = Vec::new();
    for r in ROUTES {
        if let Some(name) = matches(r.path, path) {
            if r.method == method || (method == "HEAD" && r.method == "GET") {
                return Found::Route(r, name);
            }
            allow.push(r.method);
        }
    }
    if allow.is_empty() {
        Found::NotFound
    } else {
        Found::WrongMethod(allow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_methods_and_names() {
        assert!(matches!(find("POST", "/v1/solve"), Found::Route(r, None) if r.name == "solve"));
        assert_eq!(find("GET", "/v1/solve"), Found::WrongMethod(vec!["POST"]));
        assert!(
            matches!(find("GET", "/v1/rules/maceplay"), Found::Route(r, Some("maceplay")) if r.name == "rule_set")
        );
        assert_eq!(find("GET", "/v1/rules/a/b"), Found::NotFound);
        assert_eq!(find("GET", "/v2/solve"), Found::NotFound);
        assert_eq!(
            find("PUT", "/login"),
            Found::WrongMethod(vec!["GET", "POST"])
        );
        assert!(matches!(find("HEAD", "/healthz"), Found::Route(r, None) if r.name == "healthz"));
    }
}
