//! Every command and every reply survives writing and reading back: `Display` then `FromStr` gives the same
//! value, for generated values of every variant.

use std::time::Duration;

use jungle_protocol::{
    Command, GoParams, Info, OptionKind, OptionSpec, Response, ScoreBound, StartPosition, WireScore,
};
use jungle_rules::{Move, Square};
use proptest::prelude::*;

fn square() -> impl Strategy<Value = Square> {
    (0u8..7, 0u8..9).prop_map(|(f, r)| Square::from_coords(f, r).expect("on the board"))
}

fn a_move() -> impl Strategy<Value = Move> {
    (square(), square())
        .prop_filter("a move goes somewhere", |(a, b)| a != b)
        .prop_map(|(a, b)| Move::new(a, b))
}

/// Words that are not keywords of the line they appear in.
fn words(reserved: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec("[A-Za-z0-9_=,<>.-]{1,8}", 1..4)
        .prop_filter("no keyword", move |w| {
            w.iter().all(|t| !reserved.contains(&t.as_str()))
        })
        .prop_map(|w| w.join(" "))
}

fn millis() -> impl Strategy<Value = Option<Duration>> {
    prop::option::of((0u64..10_000_000).prop_map(Duration::from_millis))
}

fn go() -> impl Strategy<Value = GoParams> {
    (
        (
            prop::option::of(any::<u32>()),
            prop::option::of(any::<u64>()),
            millis(),
            millis(),
            millis(),
        ),
        (
            millis(),
            millis(),
            prop::option::of(any::<u32>()),
            any::<bool>(),
            any::<bool>(),
        ),
    )
        .prop_map(
            |(
                (depth, nodes, movetime, wtime, btime),
                (winc, binc, movestogo, infinite, ponder),
            )| {
                GoParams {
                    depth,
                    nodes,
                    movetime,
                    wtime,
                    btime,
                    winc,
                    binc,
                    movestogo,
                    infinite,
                    ponder,
                }
            },
        )
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        Just(Command::Uci),
        any::<bool>().prop_map(Command::Debug),
        Just(Command::IsReady),
        Just(Command::UciNewGame),
        (
            words(&["value"]),
            prop::option::of(prop_oneof![Just(String::new()), words(&[])])
        )
            .prop_map(|(name, value)| Command::SetOption { name, value }),
        (
            prop_oneof![
                Just(StartPosition::StartPos),
                words(&["moves"]).prop_map(StartPosition::Fen)
            ],
            prop::collection::vec(a_move(), 0..6)
        )
            .prop_map(|(start, moves)| Command::Position { start, moves }),
        go().prop_map(Command::Go),
        Just(Command::Stop),
        Just(Command::PonderHit),
        Just(Command::Quit),
        Just(Command::Display),
        Just(Command::Eval),
        any::<u32>().prop_map(Command::Perft),
        prop::option::of(any::<u32>()).prop_map(Command::Bench),
    ]
}

fn score() -> impl Strategy<Value = WireScore> {
    prop_oneof![
        any::<i32>().prop_map(WireScore::Cp),
        any::<i32>().prop_map(WireScore::Mate)
    ]
}

fn info() -> impl Strategy<Value = Info> {
    (
        (
            prop::option::of(any::<u32>()),
            prop::option::of(any::<u32>()),
            prop::option::of(any::<u32>()),
            prop::option::of(score()),
            prop::option::of(prop_oneof![
                Just(ScoreBound::Lower),
                Just(ScoreBound::Upper)
            ]),
            prop::option::of(any::<u64>()),
        ),
        (
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u32>()),
            prop::option::of(any::<u64>()),
            millis(),
            prop::option::of(a_move()),
            prop::option::of(any::<u32>()),
            prop::collection::vec(a_move(), 0..8),
        ),
    )
        .prop_map(
            |(
                (depth, seldepth, multipv, score, bound, nodes),
                (nps, hashfull, tbhits, time, currmove, currmovenumber, pv),
            )| Info {
                depth,
                seldepth,
                multipv,
                score,
                bound,
                nodes,
                nps,
                hashfull,
                tbhits,
                time,
                currmove,
                currmovenumber,
                pv,
            },
        )
}

fn option_spec() -> impl Strategy<Value = OptionSpec> {
    const KEYWORDS: &[&str] = &["type", "default", "min", "max", "var", "<empty>"];
    let kind = prop_oneof![
        (any::<i64>(), any::<i64>(), any::<i64>())
            .prop_map(|(default, min, max)| OptionKind::Spin { default, min, max }),
        any::<bool>().prop_map(|default| OptionKind::Check { default }),
        (
            words(KEYWORDS),
            prop::collection::vec(words(KEYWORDS), 0..4)
        )
            .prop_map(|(default, vars)| OptionKind::Combo { default, vars }),
        prop_oneof![Just(String::new()), words(KEYWORDS)]
            .prop_map(|default| OptionKind::Str { default }),
        Just(OptionKind::Button),
    ];
    (words(KEYWORDS), kind).prop_map(|(name, kind)| OptionSpec { name, kind })
}

fn response() -> impl Strategy<Value = Response> {
    prop_oneof![
        words(&[]).prop_map(Response::IdName),
        words(&[]).prop_map(Response::IdAuthor),
        option_spec().prop_map(Response::Option),
        Just(Response::UciOk),
        Just(Response::ReadyOk),
        Just(Response::BestMove {
            best: None,
            ponder: None
        }),
        (a_move(), prop::option::of(a_move())).prop_map(|(best, ponder)| Response::BestMove {
            best: Some(best),
            ponder
        }),
        info().prop_map(Response::Info),
        prop_oneof![Just(String::new()), words(&[])].prop_map(Response::InfoString),
        words(&[])
            .prop_map(|w| format!("Nodes searched: {w}"))
            .prop_map(Response::Text),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn commands_round_trip(command in command()) {
        let line = command.to_string();
        prop_assert_eq!(line.parse::<Command>(), Ok(command), "{}", line);
    }

    #[test]
    fn responses_round_trip(response in response()) {
        let line = response.to_string();
        prop_assert_eq!(line.parse::<Response>(), Ok(response), "{}", line);
    }
}

#[test]
fn the_engine_s_own_info_lines_read_back_with_moves_for_mates() {
    let info = jungle_search::SearchInfo {
        depth: 9,
        seldepth: 14,
        multipv: 2,
        // A win in 5 plies is mate in 3 moves; a loss in 4 plies, mated in 2.
        score: jungle_search::Score::Mate(5),
        nodes: 12_345,
        nps: 1_000_000,
        time: Duration::from_millis(12),
        pv: vec!["a3a4".parse().unwrap(), "g7g6".parse().unwrap()],
        hashfull: 17,
    };
    let line = Response::Info((&info).into()).to_string();
    let Ok(Response::Info(read)) = line.parse::<Response>() else {
        panic!("{line}")
    };
    assert_eq!(read.score, Some(WireScore::Mate(3)));
    assert_eq!(read.pv, info.pv);
    assert_eq!(
        WireScore::from(jungle_search::Score::Mate(-4)),
        WireScore::Mate(-2)
    );
}
