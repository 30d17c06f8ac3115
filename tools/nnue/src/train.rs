//! `nnue train`: fits the net on `nnue gen` data and writes the quantised file.
//!
//! The model is the engine's net in floats: for each view, `a = b1 + Σ W1[input]` over its active inputs,
//! `h = clamp(a, 0, 1)`; `y = W2 · [h_side_to_move, h_other] + b2`, the evaluation being `y × SCALE`
//! centipawns. The loss is the squared error between `σ(y)` and the target
//! `λ σ(score / SCALE) + (1 − λ) result` (the search's score and the game's result, both for the side to
//! move), minimised by Adam over mini-batches. Each position is also used mirrored left–right (the rules are
//! symmetric under that mirror, the start position is not). Weights are clipped to what the integer
//! arithmetic allows, then rounded: `W1`, `b1` × QA, `W2` × QB, `b2` × QA × QB.

use std::io::BufRead;
use std::path::PathBuf;

use jungle_rules::{Position, Rules};
use jungle_search::nnue::Network;
use jungle_search::nnue::features::{self, INPUTS};
use jungle_search::nnue::kernels::{HIDDEN, MAX_FIRST_LAYER, MAX_OUTPUT_WEIGHT, QA, QB, SCALE};

use crate::rng::Rng;

#[derive(Clone, Debug)]
pub struct TrainOptions {
    pub data: Vec<PathBuf>,
    pub rules: Rules,
    pub epochs: usize,
    pub batch: usize,
    pub learning_rate: f32,
    /// Weight of the search score in the target (the rest is the game's result).
    pub lambda: f32,
    pub seed: u64,
    pub out: PathBuf,
}

/// One training example: the active inputs of both views (side to move first) and the target.
struct Example {
    inputs: [Vec<u16>; 2],
    target: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

fn views(pos: &Position) -> [Vec<u16>; 2] {
    let us = pos.side_to_move();
    [us, !us].map(|view| features::active(pos, view).map(|i| i as u16).collect())
}

/// Reads `RESULT SCORE FEN` lines; each position gives two examples (as is, and mirrored).
fn read_examples(options: &TrainOptions) -> Result<Vec<Example>, String> {
    let mut examples = Vec::new();
    for path in &options.data {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
            let bad = || format!("{}:{}: not RESULT SCORE FEN", path.display(), n + 1);
            let mut parts = line.splitn(3, ' ');
            let result: f32 = parts.next().and_then(|r| r.parse().ok()).ok_or_else(bad)?;
            let score: f32 = parts.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
            let pos = Position::from_fen(parts.next().ok_or_else(bad)?, &options.rules)
                .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
            let target =
                options.lambda * sigmoid(score / SCALE as f32) + (1.0 - options.lambda) * result;
            examples.push(Example {
                inputs: views(&pos),
                target,
            });
            examples.push(Example {
                inputs: views(&pos.mirror()),
                target,
            });
        }
    }
    Ok(examples)
}

/// The float model, or its gradient.
#[derive(Clone)]
struct Model {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl Model {
    fn zeros() -> Model {
        Model {
            w1: vec![0.0; INPUTS * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; 2 * HIDDEN],
            b2: 0.0,
        }
    }

    fn random(rng: &mut Rng) -> Model {
        let mut m = Model::zeros();
        m.w1.iter_mut().for_each(|w| *w = (rng.unit() - 0.5) * 0.2);
        m.b1.iter_mut().for_each(|b| *b = 0.1);
        m.w2.iter_mut().for_each(|w| *w = (rng.unit() - 0.5) * 0.12);
        m
    }

    /// First-layer outputs of both views.
    fn hidden(&self, e: &Example) -> [Vec<f32>; 2] {
        e.inputs.clone().map(|inputs| {
            let mut a = self.b1.clone();
            for i in inputs {
                let row = &self.w1[i as usize * HIDDEN..][..HIDDEN];
                a.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
            a
        })
    }

    fn output(&self, hidden: &[Vec<f32>; 2]) -> f32 {
        let mut y = self.b2;
        for (half, a) in hidden.iter().enumerate() {
            let w = &self.w2[half * HIDDEN..][..HIDDEN];
            y += a
                .iter()
                .zip(w)
                .map(|(a, w)| a.clamp(0.0, 1.0) * w)
                .sum::<f32>();
        }
        y
    }

    /// Adds the gradient of `e`'s loss to `grad`; returns the loss.
    fn backward(&self, e: &Example, grad: &mut Model) -> f32 {
        let hidden = self.hidden(e);
        let p = sigmoid(self.output(&hidden));
        let dy = 2.0 * (p - e.target) * p * (1.0 - p);
        grad.b2 += dy;
        for (half, a) in hidden.iter().enumerate() {
            let w2 = &self.w2[half * HIDDEN..][..HIDDEN];
            let gw2 = &mut grad.w2[half * HIDDEN..][..HIDDEN];
            let mut da = [0.0f32; HIDDEN];
            for k in 0..HIDDEN {
                gw2[k] += dy * a[k].clamp(0.0, 1.0);
                if a[k] > 0.0 && a[k] < 1.0 {
                    da[k] = dy * w2[k];
                }
            }
            grad.b1.iter_mut().zip(&da).for_each(|(g, d)| *g += d);
            for &i in &e.inputs[half] {
                let row = &mut grad.w1[i as usize * HIDDEN..][..HIDDEN];
                row.iter_mut().zip(&da).for_each(|(g, d)| *g += d);
            }
        }
        (p - e.target).powi(2)
    }

    fn loss(&self, examples: &[Example]) -> f64 {
        let sum: f64 = examples
            .iter()
            .map(|e| f64::from((sigmoid(self.output(&self.hidden(e))) - e.target).powi(2)))
            .sum();
        sum / examples.len().max(1) as f64
    }
}

/// Adam's moments for every parameter, in the model's order.
struct Adam {
    m: Model,
    v: Model,
    t: i32,
}

impl Adam {
    fn step(&mut self, model: &mut Model, grad: &Model, lr: f32, scale: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let update = |p: &mut f32, g: f32, m: &mut f32, v: &mut f32, limit: f32| {
            let g = g * scale;
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
            *p = p.clamp(-limit, limit);
        };
        // Limits a little inside the integer ranges, so rounding cannot pass them.
        let first = (f32::from(MAX_FIRST_LAYER) - 1.0) / f32::from(QA);
        let out = (f32::from(MAX_OUTPUT_WEIGHT) - 1.0) / QB as f32;
        for (((p, g), m), v) in model
            .w1
            .iter_mut()
            .zip(&grad.w1)
            .zip(&mut self.m.w1)
            .zip(&mut self.v.w1)
        {
            update(p, *g, m, v, first);
        }
        for (((p, g), m), v) in model
            .b1
            .iter_mut()
            .zip(&grad.b1)
            .zip(&mut self.m.b1)
            .zip(&mut self.v.b1)
        {
            update(p, *g, m, v, first);
        }
        for (((p, g), m), v) in model
            .w2
            .iter_mut()
            .zip(&grad.w2)
            .zip(&mut self.m.w2)
            .zip(&mut self.v.w2)
        {
            update(p, *g, m, v, out);
        }
        update(
            &mut model.b2,
            grad.b2,
            &mut self.m.b2,
            &mut self.v.b2,
            f32::MAX,
        );
    }
}

fn round_row(values: &[f32], scale: f32) -> [i16; HIDDEN] {
    let mut row = [0i16; HIDDEN];
    for (q, v) in row.iter_mut().zip(values) {
        *q = (v * scale).round() as i16;
    }
    row
}

fn quantise(model: &Model, rules: &Rules) -> Result<Network, String> {
    let qa = f32::from(QA);
    let first = model
        .w1
        .chunks_exact(HIDDEN)
        .map(|r| round_row(r, qa))
        .collect();
    let output = [
        round_row(&model.w2[..HIDDEN], QB as f32),
        round_row(&model.w2[HIDDEN..], QB as f32),
    ];
    let output_bias = (model.b2 * qa * QB as f32).round() as i32;
    Network::new(
        rules.clone(),
        first,
        round_row(&model.b1, qa),
        output,
        output_bias,
    )
    .map_err(|e| format!("quantising: {e}"))
}

/// Trains, reporting the loss per epoch, and writes the net.
pub fn train(options: &TrainOptions) -> Result<(), String> {
    let started = std::time::Instant::now();
    let mut examples = read_examples(options)?;
    if examples.len() < 20 {
        return Err(format!(
            "{} examples are too few to train on",
            examples.len()
        ));
    }
    let mut rng = Rng::new(options.seed);
    // Shuffle, then hold out 5% (whole positions stay on one side: both copies are adjacent before this).
    for i in (1..examples.len()).rev() {
        examples.swap(i, rng.below(i + 1));
    }
    let held = examples.len() / 20;
    let (validation, training) = examples.split_at_mut(held);
    eprintln!(
        "{} training and {} validation examples, read in {:.1} s",
        training.len(),
        validation.len(),
        started.elapsed().as_secs_f64()
    );
    let mut model = Model::random(&mut rng);
    let mut adam = Adam {
        m: Model::zeros(),
        v: Model::zeros(),
        t: 0,
    };
    let mut grad = Model::zeros();
    for epoch in 0..options.epochs {
        let epoch_start = std::time::Instant::now();
        for i in (1..training.len()).rev() {
            training.swap(i, rng.below(i + 1));
        }
        // Learning rate: constant, then down by 10× over the last third.
        let lr = if epoch * 3 < options.epochs * 2 {
            options.learning_rate
        } else {
            options.learning_rate * 0.1
        };
        let mut train_loss = 0.0f64;
        for batch in training.chunks(options.batch) {
            grad.w1.iter_mut().for_each(|g| *g = 0.0);
            grad.b1.iter_mut().for_each(|g| *g = 0.0);
            grad.w2.iter_mut().for_each(|g| *g = 0.0);
            grad.b2 = 0.0;
            for e in batch.iter() {
                train_loss += f64::from(model.backward(e, &mut grad));
            }
            adam.step(&mut model, &grad, lr, 1.0 / batch.len() as f32);
        }
        eprintln!(
            "epoch {:>3}: training loss {:.6}, validation loss {:.6}, {:.1} s",
            epoch + 1,
            train_loss / training.len() as f64,
            model.loss(validation),
            epoch_start.elapsed().as_secs_f64()
        );
    }
    let net = quantise(&model, &options.rules)?;
    // The rounded net against the float one on the held-out positions, in centipawns.
    let mut diff = 0.0f64;
    let mut compared = 0usize;
    for e in validation.iter().take(2000) {
        let float_cp = model.output(&model.hidden(e)) * SCALE as f32;
        let int_cp = quantised_output(&net, e);
        diff += f64::from((float_cp - int_cp as f32).abs());
        compared += 1;
    }
    eprintln!(
        "quantised vs float: {:.2} cp mean absolute difference over {compared} positions",
        diff / compared.max(1) as f64
    );
    std::fs::write(&options.out, net.to_bytes())
        .map_err(|e| format!("{}: {e}", options.out.display()))?;
    eprintln!(
        "wrote {} in {:.1} s in all",
        options.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The integer net's output for an example, through the engine's own code (accumulators from the inputs).
fn quantised_output(net: &Network, e: &Example) -> i32 {
    let view = |inputs: &[u16]| net.first_layer(inputs.iter().map(|&i| usize::from(i)));
    net.output(&view(&e.inputs[0]), &view(&e.inputs[1]))
}
