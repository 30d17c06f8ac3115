//! The quantised net and its file format.
//!
//! File (little-endian): the magic `JNNUE01\n`; the rules the net was trained for (`u32` length, then the
//! option string of docs/rules.md); `u32` inputs and `u32` hidden width (must be [`INPUTS`] and [`HIDDEN`]);
//! the first layer as `i16`, input by input (`HIDDEN` each); its biases (`HIDDEN` × `i16`); the output weights
//! (`2 × HIDDEN` × `i16`, the side to move's half first); the output bias (`i32`). Nothing may follow.

use std::sync::{Arc, OnceLock};

use jungle_rules::rules::RuleOptions;
use jungle_rules::{Preset, Rules};

use super::features::INPUTS;
use super::kernels::{self, HIDDEN, MAX_FIRST_LAYER, MAX_OUTPUT_WEIGHT, QA, QB, Row, SCALE};

const MAGIC: &[u8; 8] = b"JNNUE01\n";
/// Largest evaluation the net may give, far below the search's win scores.
const MAX_CP: i32 = 20_000;
/// Longest rules string a file may carry (option strings are far shorter).
const MAX_RULES_LEN: usize = 4096;

/// The longest net file of this format: the header with the longest rules, the weights, the output bias.
pub const MAX_FILE_BYTES: usize =
    MAGIC.len() + 4 + MAX_RULES_LEN + 8 + (INPUTS + 3) * HIDDEN * 2 + 4;

/// The nets shipped in the binary, one per preset that has one (see docs/engine.md for how each was made and
/// the match that let it in). Each file names its own rules; a test checks they are the preset's.
static BUILT_IN: &[(Preset, &[u8])] = &[
    (Preset::Standard, include_bytes!("../../nets/standard.nnue")),
    (Preset::Modern, include_bytes!("../../nets/modern.nnue")),
    (Preset::Leiden, include_bytes!("../../nets/leiden.nnue")),
    (
        Preset::Mistboard,
        include_bytes!("../../nets/mistboard.nnue"),
    ),
    (
        Preset::AnimalCheckers,
        include_bytes!("../../nets/animal-checkers.nnue"),
    ),
];

/// Why a net file cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    #[error("not a net file (no JNNUE01 header)")]
    BadMagic,
    #[error("the file ends early (truncated)")]
    Truncated,
    #[error("{0} bytes follow the net (not a net of this format)")]
    TrailingBytes(usize),
    #[error("the net's rules: {0}")]
    Rules(String),
    #[error("a net of {inputs} inputs and width {hidden}; this engine reads {INPUTS} and {HIDDEN}")]
    Shape { inputs: u32, hidden: u32 },
    #[error("a weight is out of the range the integer arithmetic allows (could overflow)")]
    WeightOutOfRange,
    #[error("longer than any net of this format ({MAX_FILE_BYTES} bytes at most)")]
    TooLong,
    #[error("{0}")]
    Io(String),
}

/// A quantised net: [`INPUTS`] → [`HIDDEN`] per side → clipped ReLU → 1, and the rules it was trained for.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    rules: Rules,
    first: Vec<Row>,
    bias: Row,
    /// Output weights for the side to move's half, then the other side's.
    output: [Row; 2],
    output_bias: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("rules", &self.rules.to_string())
            .field("output_bias", &self.output_bias)
            .finish_non_exhaustive()
    }
}

/// Reads the file's fields in order.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], NetError> {
        if self.0.len() < n {
            return Err(NetError::Truncated);
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, NetError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn row(&mut self) -> Result<Row, NetError> {
        let b = self.take(2 * HIDDEN)?;
        let mut row = [0i16; HIDDEN];
        for (x, pair) in row.iter_mut().zip(b.chunks_exact(2)) {
            *x = i16::from_le_bytes([pair[0], pair[1]]);
        }
        Ok(row)
    }
}

fn within(row: &Row, limit: i16) -> bool {
    row.iter().all(|w| (-limit..=limit).contains(w))
}

impl Network {
    /// A net from its parts, refused when a weight is outside what the arithmetic allows.
    pub fn new(
        rules: Rules,
        first: Vec<Row>,
        bias: Row,
        output: [Row; 2],
        output_bias: i32,
    ) -> Result<Network, NetError> {
        if first.len() != INPUTS {
            return Err(NetError::Shape {
                inputs: u32::try_from(first.len()).unwrap_or(u32::MAX),
                hidden: HIDDEN as u32,
            });
        }
        let first_ok = first
            .iter()
            .chain([&bias])
            .all(|r| within(r, MAX_FIRST_LAYER));
        if !first_ok || !output.iter().all(|r| within(r, MAX_OUTPUT_WEIGHT)) {
            return Err(NetError::WeightOutOfRange);
        }
        Ok(Network {
            rules,
            first,
            bias,
            output,
            output_bias,
        })
    }

    /// Reads a net file (format in the module comment).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let mut r = Reader(bytes);
        if r.take(MAGIC.len()).map_err(|_| NetError::BadMagic)? != MAGIC {
            return Err(NetError::BadMagic);
        }
        let rules_len = r.u32()? as usize;
        if rules_len > MAX_RULES_LEN {
            return Err(NetError::Rules(format!("{rules_len} bytes long")));
        }
        let text = std::str::from_utf8(r.take(rules_len)?)
            .map_err(|_| NetError::Rules("not UTF-8".into()))?;
        let rules: Rules = text
            .parse()
            .map_err(|e| NetError::Rules(format!("\"{text}\": {e}")))?;
        let (inputs, hidden) = (r.u32()?, r.u32()?);
        if inputs as usize != INPUTS || hidden as usize != HIDDEN {
            return Err(NetError::Shape { inputs, hidden });
        }
        let first = (0..INPUTS)
            .map(|_| r.row())
            .collect::<Result<Vec<_>, _>>()?;
        let bias = r.row()?;
        let output = [r.row()?, r.row()?];
        let b = r.take(4)?;
        let output_bias = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if !r.0.is_empty() {
            return Err(NetError::TrailingBytes(r.0.len()));
        }
        Network::new(rules, first, bias, output, output_bias)
    }

    /// Reads a net file from disk. Only a regular file of at most [`MAX_FILE_BYTES`] is read: anything else
    /// (`/dev/zero`, a pipe, a directory, a huge file) is refused before it is read, so a bad `EvalFile`
    /// can neither exhaust memory nor hang the engine.
    pub fn load(path: &std::path::Path) -> Result<Network, NetError> {
        use std::io::Read;
        let io = |e: std::io::Error| NetError::Io(format!("{}: {e}", path.display()));
        if !std::fs::metadata(path).map_err(io)?.is_file() {
            return Err(NetError::Io(format!(
                "{}: not a regular file",
                path.display()
            )));
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(io)?
            .take(MAX_FILE_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() > MAX_FILE_BYTES {
            return Err(NetError::TooLong);
        }
        Network::from_bytes(&bytes)
    }

    /// The file's bytes ([`Network::from_bytes`] reads them back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let rules = self.rules.to_string();
        let mut out =
            Vec::with_capacity(MAGIC.len() + 16 + rules.len() + (INPUTS + 3) * HIDDEN * 2);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(rules.len() as u32).to_le_bytes());
        out.extend_from_slice(rules.as_bytes());
        out.extend_from_slice(&(INPUTS as u32).to_le_bytes());
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        for row in self.first.iter().chain([&self.bias]).chain(&self.output) {
            for w in row {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }

    /// The nets shipped in the binary, read once, with the presets they were trained for.
    pub fn built_in_nets() -> &'static [(Preset, Arc<Network>)] {
        static NETS: OnceLock<Vec<(Preset, Arc<Network>)>> = OnceLock::new();
        NETS.get_or_init(|| {
            BUILT_IN
                .iter()
                .map(|&(preset, bytes)| {
                    let net =
                        Network::from_bytes(bytes).expect("the built-in nets are valid (tested)");
                    (preset, Arc::new(net))
                })
                .collect()
        })
    }

    /// The built-in net that evaluates a game under `rules`: the net of the preset the rules are, or differ
    /// from only in the draw rules (`repetition-draw`, `quiet-ply-limit`: they end games but do not change what
    /// a position is worth to the search, which applies them itself). `None` for every other rule set: the
    /// hand-written evaluation, which reads the rules, is the sensible one where no net was trained.
    pub fn built_in(rules: &Rules) -> Option<&'static Arc<Network>> {
        Network::built_in_nets()
            .iter()
            .map(|(_, net)| net)
            .find(|net| net.serves(rules))
    }

    /// Whether the net evaluates games under `rules`: its own rules, with any draw rules (see
    /// [`Network::built_in`]).
    pub fn serves(&self, rules: &Rules) -> bool {
        without_draw_rules(self.rules.options()) == without_draw_rules(rules.options())
    }

    /// The rules the net was trained for: the engine uses it only for a game under these rules (draw rules
    /// aside: [`Network::serves`]).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// One view's first-layer output for its active inputs (each below [`INPUTS`]).
    pub fn first_layer(&self, inputs: impl IntoIterator<Item = usize>) -> Row {
        let mut acc = self.bias;
        for input in inputs {
            kernels::add(&mut acc, &self.first[input]);
        }
        acc
    }

    /// The first-layer row of one input.
    #[inline]
    pub(crate) fn row(&self, input: usize) -> &Row {
        &self.first[input]
    }

    /// The output for the side to move, in centipawns, from both sides' accumulators.
    #[inline]
    pub fn output(&self, ours: &Row, theirs: &Row) -> i32 {
        // Widened: the bias is any i32, and the product with SCALE may pass i32.
        let sum = i64::from(kernels::crelu_dot(ours, &self.output[0]))
            + i64::from(kernels::crelu_dot(theirs, &self.output[1]))
            + i64::from(self.output_bias);
        let cp = sum * i64::from(SCALE) / (i64::from(QA) * i64::from(QB));
        cp.clamp(-i64::from(MAX_CP), i64::from(MAX_CP)) as i32
    }
}

/// The options with the draw rules at their defaults: rule sets equal so share a built-in net.
fn without_draw_rules(options: &RuleOptions) -> RuleOptions {
    let default = RuleOptions::default();
    RuleOptions {
        repetition_draw: default.repetition_draw,
        quiet_ply_limit: default.quiet_ply_limit,
        ..*options
    }
}

/// A net of random weights for the tests (the arithmetic must hold for any valid net, not just the shipped one).
#[cfg(test)]
pub(crate) fn random_net(seed: u64) -> Network {
    let mut state = seed;
    let mut next = |limit: i16| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) % (2 * limit as u64 + 1)) as i16 - limit
    };
    let mut row = |limit: i16| {
        let mut r = [0i16; HIDDEN];
        r.iter_mut().for_each(|x| *x = next(limit));
        r
    };
    let first = (0..INPUTS).map(|_| row(MAX_FIRST_LAYER / 4)).collect();
    let bias = row(MAX_FIRST_LAYER / 4);
    let output = [row(MAX_OUTPUT_WEIGHT / 8), row(MAX_OUTPUT_WEIGHT / 8)];
    Network::new(Rules::default(), first, bias, output, 1234).expect("weights in range")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standard() -> &'static Arc<Network> {
        Network::built_in(&Rules::default()).expect("the standard rules have a net")
    }

    #[test]
    fn a_net_reads_back_from_its_bytes() {
        let net = random_net(5);
        assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    }

    #[test]
    fn each_built_in_net_reads_back_its_bytes_and_is_its_presets() {
        assert_eq!(Network::built_in_nets().len(), BUILT_IN.len());
        for ((preset, net), (_, bytes)) in Network::built_in_nets().iter().zip(BUILT_IN) {
            assert_eq!(&net.to_bytes(), bytes, "{}", preset.name());
            assert_eq!(net.rules(), &Rules::preset(*preset), "{}", preset.name());
        }
        assert!(
            BUILT_IN
                .iter()
                .any(|(preset, _)| *preset == Preset::Standard),
            "the standard rules have a net"
        );
    }

    #[test]
    fn a_rule_set_gets_its_presets_net_also_under_other_draw_rules_and_no_net_otherwise() {
        for (preset, net) in Network::built_in_nets() {
            let name = preset.name();
            for text in [
                name.to_string(),
                format!("{name},quiet-ply-limit=100"),
                format!("{name},repetition-draw=0,quiet-ply-limit=0"),
            ] {
                let rules: Rules = text.parse().unwrap();
                let chosen = Network::built_in(&rules).expect(&text);
                assert!(Arc::ptr_eq(chosen, net), "{text}");
            }
        }
        // Options that change how the animals move or capture have no net unless a preset is exactly so.
        for text in [
            "dog-swims=true",
            "universal-traps=true",
            "leopard-jumps=true",
        ] {
            assert!(
                Network::built_in(&text.parse().unwrap()).is_none(),
                "{text}"
            );
        }
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason() {
        let good = standard().to_bytes();
        assert_eq!(Network::from_bytes(b"hello"), Err(NetError::BadMagic));
        assert_eq!(
            Network::from_bytes(&good[..good.len() - 1]),
            Err(NetError::Truncated)
        );
        let mut long = good.clone();
        long.push(0);
        assert_eq!(Network::from_bytes(&long), Err(NetError::TrailingBytes(1)));
        // The first first-layer weight (after magic, rules and shape) set beyond the allowed range.
        let rules_len = Rules::default().to_string().len();
        let at = MAGIC.len() + 4 + rules_len + 8;
        let mut wild = good.clone();
        wild[at..at + 2].copy_from_slice(&i16::MAX.to_le_bytes());
        assert_eq!(Network::from_bytes(&wild), Err(NetError::WeightOutOfRange));
        let mut wide = good;
        wide[at - 4..at].copy_from_slice(&256u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&wide),
            Err(NetError::Shape { hidden: 256, .. })
        ));
    }

    #[test]
    fn colour_swapped_twins_evaluate_the_same() {
        let rules = Rules::default();
        let net = random_net(9);
        let pos = jungle_rules::Position::from_fen(
            "l4ct/1d5/rp2w1e/7/7/7/2P2R1/ECW2D1/T5L b 9 5",
            &rules,
        )
        .unwrap();
        assert_eq!(net.evaluate(&pos), net.evaluate(&pos.swap_colours()));
    }
}
