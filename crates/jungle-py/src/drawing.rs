//! The board as text (for `repr`) and as SVG (for Jupyter).

use std::fmt::Write;

use jungle_rules::terrain::DENS;
use jungle_rules::{Diagram, Position, Rules, Side, Square};

/// The terrain of a square, for its colour: `~` water, `#` trap, `*` den, `.` land (the marks of `Diagram`).
fn terrain_mark(sq: Square, rules: &Rules) -> char {
    if rules.water().contains(sq) {
        '~'
    } else if rules.traps().contains(sq) {
        '#'
    } else if sq == DENS.blue || sq == DENS.red {
        '*'
    } else {
        '.'
    }
}

/// The board as every text interface draws it (`jungle_rules::Diagram`), without the final newline.
pub fn text(pos: &Position, rules: &Rules) -> String {
    Diagram::new(pos, rules).to_string().trim_end().to_string()
}

const CELL: u32 = 40;
const MARGIN: u32 = 20;

/// An SVG picture of the board: terrain as colours, pieces as discs with the animal's Chinese character and
/// letter, coordinates around the board.
pub fn svg(pos: &Position, rules: &Rules, size: u32) -> String {
    let width = 7 * CELL + 2 * MARGIN;
    let height = 9 * CELL + 2 * MARGIN;
    let scaled = size.max(1) as f64 / width as f64;
    let mut out = String::new();
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{}" height="{}" font-family="sans-serif">"#,
        (width as f64 * scaled).round(),
        (height as f64 * scaled).round()
    );
    let _ = write!(
        out,
        r##"<rect width="{width}" height="{height}" fill="#f4ecd8"/>"##
    );
    for sq in Square::all() {
        let x = MARGIN + u32::from(sq.file()) * CELL;
        let y = MARGIN + (8 - u32::from(sq.rank())) * CELL;
        let fill = match terrain_mark(sq, rules) {
            '~' => "#8fc4e8",
            '#' => "#d9a066",
            '*' => "#b48ec8",
            _ => "#a8d08d",
        };
        let _ = write!(
            out,
            r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#5a5a5a" stroke-width="0.5"><title>{sq}</title></rect>"##
        );
        if let Some(p) = pos.piece_at(sq) {
            let (cx, cy) = (x + CELL / 2, y + CELL / 2);
            let colour = match p.side {
                Side::Blue => "#1f4fbf",
                Side::Red => "#c0282d",
            };
            let _ = write!(
                out,
                r##"<circle cx="{cx}" cy="{cy}" r="{}" fill="#fffaf0" stroke="{colour}" stroke-width="2.5"/><text x="{cx}" y="{}" text-anchor="middle" font-size="17" fill="{colour}">{}</text><text x="{cx}" y="{}" text-anchor="middle" font-size="8" fill="{colour}">{}</text>"##,
                CELL / 2 - 3,
                cy + 3,
                p.animal.chinese(),
                cy + 13,
                p.fen_char()
            );
        }
    }
    for file in 0..7u8 {
        let x = MARGIN + u32::from(file) * CELL + CELL / 2;
        let _ = write!(
            out,
            r#"<text x="{x}" y="{}" text-anchor="middle" font-size="11">{}</text>"#,
            height - 6,
            (b'a' + file) as char
        );
    }
    for rank in 0..9u8 {
        let y = MARGIN + (8 - u32::from(rank)) * CELL + CELL / 2 + 4;
        let _ = write!(
            out,
            r#"<text x="{}" y="{y}" text-anchor="middle" font-size="11">{}</text>"#,
            MARGIN / 2,
            rank + 1
        );
    }
    out.push_str("</svg>");
    out
}
