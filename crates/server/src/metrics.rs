//! The service's Prometheus metrics: requests by route and status, their latency, error answers
//! by route and code, hands solved by objective; written in the Prometheus text format.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::sync::Mutex;

/// Latency buckets, from 100 µs (a single hand) to 30 s (a long Monte Carlo request).
const BUCKETS: [f64; 17] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0, 30.0,
];

/// The content type of [`Metrics::text`].
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

#[derive(Default)]
struct Histogram {
    buckets: [u64; BUCKETS.len()],
    count: u64,
    sum: f64,
}

#[derive(Default)]
struct Counts {
    requests: BTreeMap<(&'static str, u16), u64>,
    latency: BTreeMap<&'static str, Histogram>,
    errors: BTreeMap<(&'static str, &'static str), u64>,
    hands: BTreeMap<&'static str, u64>,
}

/// The counters of one server (one lock: an update is a few additions, far below a request).
#[derive(Default)]
pub struct Metrics(Mutex<Counts>);

fn number(v: f64) -> String {
    // the Prometheus clients' form: a whole number keeps its ".0"
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.1}")
    } else {
        format!("{v}")
    }
}

impl Metrics {
    fn counts(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// One answer of `route`: its status, its time and its error code if it is an error.
    pub fn observe(
        &self,
        route: &'static str,
        status: u16,
        seconds: f64,
        code: Option<&'static str>,
    ) {
        let mut c = self.counts();
        *c.requests.entry((route, status)).or_default() += 1;
        let h = c.latency.entry(route).or_default();
        h.count += 1;
        h.sum += seconds;
        for (i, le) in BUCKETS.iter().enumerate() {
            if seconds <= *le {
                h.buckets[i] += 1;
            }
        }
        if let Some(code) = code {
            *c.errors.entry((route, code)).or_default() += 1;
        }
    }

    /// `n` hands solved by `objective`.
    pub fn solved(&self, objective: &'static str, n: u64) {
        *self.counts().hands.entry(objective).or_default() += n;
    }

    /// Every metric in the Prometheus text format.
    pub fn text(&self) -> String {
        let c = self.counts();
        let mut out = String::new();
        let head = |out: &mut String, name: &str, kind: &str, help: &str| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
        };
        head(
            &mut out,
            "chinese_poker_requests_total",
            "counter",
            "requests answered, by route and status",
        );
        for ((route, status), n) in &c.requests {
            let _ = writeln!(
                out,
                "chinese_poker_requests_total{{route=\"{route}\",status=\"{status}\"}} {}",
                number(*n as f64)
            );
        }
        head(
            &mut out,
            "chinese_poker_request_seconds",
            "histogram",
            "time to answer a request, by route",
        );
        for (route, h) in &c.latency {
            for (le, n) in BUCKETS.iter().zip(h.buckets) {
                let _ = writeln!(
                    out,
                    "chinese_poker_request_seconds_bucket{{le=\"{le}\",route=\"{route}\"}} {}",
                    number(n as f64)
                );
            }
            let name = "chinese_poker_request_seconds";
            let _ = writeln!(
                out,
                "{name}_bucket{{le=\"+Inf\",route=\"{route}\"}} {}",
                number(h.count as f64)
            );
            let _ = writeln!(
                out,
                "{name}_count{{route=\"{route}\"}} {}",
                number(h.count as f64)
            );
            let _ = writeln!(out, "{name}_sum{{route=\"{route}\"}} {}", number(h.sum));
        }
        head(
            &mut out,
            "chinese_poker_errors_total",
            "counter",
            "error answers, by route and error code",
        );
        for ((route, code), n) in &c.errors {
            let _ = writeln!(
                out,
                "chinese_poker_errors_total{{code=\"{code}\",route=\"{route}\"}} {}",
                number(*n as f64)
            );
        }
        head(
            &mut out,
            "chinese_poker_hands_solved_total",
            "counter",
            "hands solved, by objective",
        );
        for (objective, n) in &c.hands {
            let _ = writeln!(
                out,
                "chinese_poker_hands_solved_total{{objective=\"{objective}\"}} {}",
                number(*n as f64)
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_the_text_format() {
        let m = Metrics::default();
        m.observe("solve", 200, 0.0002, None);
        m.observe("solve", 422, 0.0001, Some("invalid_input"));
        m.solved("table", 2);
        let t = m.text();
        assert!(t.contains("chinese_poker_requests_total{route=\"solve\",status=\"200\"} 1.0\n"));
        assert!(
            t.contains("chinese_poker_errors_total{code=\"invalid_input\",route=\"solve\"} 1.0\n")
        );
        assert!(t.contains("chinese_poker_hands_solved_total{objective=\"table\"} 2.0\n"));
        assert!(t.contains("chinese_poker_request_seconds_count{route=\"solve\"} 2.0\n"));
        assert!(
            t.contains("chinese_poker_request_seconds_bucket{le=\"0.0001\",route=\"solve\"} 1.0\n")
        );
        assert!(t.contains(
            "chinese_poker_request_seconds_bucket{le=\"0.00025\",route=\"solve\"} 2.0\n"
        ));
    }
}
