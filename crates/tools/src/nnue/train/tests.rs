//! Tests of the trainer: it learns, the engine agrees with it, it resumes from a
//! checkpoint exactly, holds out whole games, and refuses bad settings and bad data.

use super::super::data::{open_for_append, Outcome};
use super::*;
use cozy_chess::Board;
use engine::nnue::Nnue;
use std::io::Write;
use std::sync::Arc;

/// Positions whose score is the material balance: a net must learn to count.
fn material_records(n: usize) -> (Vec<Board>, Vec<Record>) {
    use rand::Rng;
    let mut rng = StdRng::seed_from_u64(9);
    let mut boards = Vec::new();
    let mut records = Vec::new();
    while boards.len() < n {
        let mut b = Board::default();
        for _ in 0..rng.gen_range(10..60) {
            let mut ms = Vec::new();
            b.generate_moves(|m| {
                ms.extend(m);
                false
            });
            if ms.is_empty() {
                break;
            }
            b.play_unchecked(ms[rng.gen_range(0..ms.len())]);
        }
        if b.status() != cozy_chess::GameStatus::Ongoing {
            continue;
        }
        let value = [100, 300, 300, 500, 900, 0];
        let mut white = 0i32;
        for (i, piece) in cozy_chess::Piece::ALL.iter().enumerate() {
            white += value[i]
                * (b.colored_pieces(cozy_chess::Color::White, *piece).len() as i32
                    - b.colored_pieces(cozy_chess::Color::Black, *piece).len() as i32);
        }
        let stm = if b.side_to_move() == cozy_chess::Color::White {
            white
        } else {
            -white
        };
        records.push(Record::from_board(
            &b,
            stm as i16,
            Outcome::Draw,
            boards.len() as u32,
        ));
        boards.push(b);
    }
    (boards, records)
}

fn small(activation: Activation) -> TrainSettings {
    TrainSettings {
        arch: Arch {
            hidden: 64,
            activation,
            buckets: 2,
        },
        epochs: 8,
        batch: 256,
        lr: 0.005,
        lr_final: 0.0005,
        wdl: 0.0,
        threads: 2,
        ..TrainSettings::default()
    }
}

#[test]
fn training_lowers_the_loss_and_the_engine_agrees_with_the_trainer() {
    for activation in [Activation::CRelu, Activation::SCRelu] {
        let (boards, records) = material_records(3000);
        let mut samples: Vec<Sample> = records
            .iter()
            .map(|r| sample_of(r, 0.0, SCALE as f32))
            .collect();
        let held: Vec<Sample> = samples.split_off(2700);
        let s = small(activation);
        let mut seen = Vec::new();
        let summary = train_samples(
            &samples,
            &held,
            &s,
            None,
            &mut |r| seen.push(r.train_loss),
            &mut |_| Ok(()),
        )
        .unwrap();
        assert_eq!(seen.len(), 8);
        assert!(seen[7] < seen[0] * 0.7, "{activation:?} losses {seen:?}");
        let v = summary.epochs[7].validation_loss.unwrap();
        assert!(v < seen[0], "validation {v} vs first epoch {}", seen[0]);
        // The quantised network in the engine gives the float network's centipawns.
        let net = Arc::new(summary.net.quantise());
        let mut nnue = Nnue::new(net);
        let mut total = 0f32;
        let mut scratch = Scratch::default();
        for (b, r) in boards.iter().zip(&records).take(200) {
            let x = sample_of(r, 0.0, SCALE as f32);
            let float_cp = summary.net.forward(&x, &mut scratch) * SCALE as f32;
            let int_cp = nnue.evaluate(b, 0) as f32;
            let diff = (float_cp - int_cp).abs();
            assert!(
                diff < 25.0 + 0.1 * float_cp.abs(),
                "{activation:?}: float {float_cp} vs engine {int_cp}"
            );
            total += diff;
        }
        assert!(total / 200.0 < 10.0, "mean difference {}", total / 200.0);
    }
}

/// The slope of the network's centipawns against the records' scores (least squares
/// through 0) over the records with |score| <= 400, which a sigmoid of 150 cp does not
/// flatten.
fn centipawn_slope(net: &FloatNet, records: &[Record]) -> f32 {
    let mut scratch = Scratch::default();
    let (mut xy, mut xx) = (0f32, 0f32);
    for r in records.iter().filter(|r| r.score.abs() <= 400).take(500) {
        let x = sample_of(r, 0.0, SCALE as f32);
        let cp = net.forward(&x, &mut scratch) * SCALE as f32;
        xy += cp * f32::from(r.score);
        xx += f32::from(r.score) * f32::from(r.score);
    }
    xy / xx
}

#[test]
fn a_narrower_loss_scale_still_gives_the_scores_in_centipawns() {
    let (_, records) = material_records(3000);
    let scale = 150.0;
    let samples: Vec<Sample> = records.iter().map(|r| sample_of(r, 0.0, scale)).collect();
    let s = TrainSettings {
        scale: Some(scale),
        epochs: 30,
        ..small(Activation::SCRelu)
    };
    let summary = train_samples(&samples, &[], &s, None, &mut |_| {}, &mut |_| Ok(())).unwrap();
    assert_eq!(summary.scale, scale);
    // Were the output read at the loss's scale, the slope would be 150/400 or 400/150.
    let slope = centipawn_slope(&summary.net, &records);
    assert!((0.8..1.25).contains(&slope), "slope {slope}");
}

#[test]
fn a_resumed_run_ends_where_an_uninterrupted_one_does() {
    let (_, records) = material_records(1500);
    let samples: Vec<Sample> = records
        .iter()
        .map(|r| sample_of(r, 0.0, SCALE as f32))
        .collect();
    let s = TrainSettings {
        epochs: 4,
        ..small(Activation::SCRelu)
    };
    let whole = train_samples(&samples, &[], &s, None, &mut |_| {}, &mut |_| Ok(())).unwrap();
    // The same run killed after its second epoch's checkpoint (kept as bytes, as on
    // disk), then resumed.
    let mut saved = None;
    let killed = train_samples(&samples, &[], &s, None, &mut |_| {}, &mut |c| {
        if c.checkpoint.epoch == 2 {
            saved = Some(c.checkpoint.to_bytes());
            return Err("killed".into());
        }
        Ok(())
    });
    assert_eq!(killed.unwrap_err(), "killed");
    let ckpt = Checkpoint::from_bytes(&saved.unwrap()).unwrap();
    assert_eq!(ckpt.epoch, 2);
    let resumed =
        train_samples(&samples, &[], &s, Some(ckpt), &mut |_| {}, &mut |_| Ok(())).unwrap();
    assert_eq!(resumed.epochs.len(), 2);
    assert_eq!(resumed.epochs[0].epoch, 3);
    assert_eq!(resumed.net.params, whole.net.params);
    // A damaged checkpoint is refused.
    let mut bytes = Checkpoint {
        net: whole.net.clone(),
        adam: Adam::new(whole.net.params.len()),
        epoch: 4,
        best_loss: 0.1,
        best_validation: 0.2,
        seed: 1,
    }
    .to_bytes();
    let n = bytes.len();
    bytes[n / 2] ^= 1;
    assert!(Checkpoint::from_bytes(&bytes)
        .unwrap_err()
        .contains("checksum"));
}

#[test]
fn a_diverging_run_stops_and_keeps_the_last_good_network() {
    let (_, records) = material_records(600);
    let mut samples: Vec<Sample> = records
        .iter()
        .map(|r| sample_of(r, 0.0, SCALE as f32))
        .collect();
    // A learning rate this large throws the weights about; NaN targets poison the loss.
    for s in samples.iter_mut().skip(300) {
        s.target = f32::NAN;
    }
    let s = TrainSettings {
        epochs: 3,
        ..small(Activation::CRelu)
    };
    let mut saved = 0;
    let summary = train_samples(&samples, &[], &s, None, &mut |_| {}, &mut |_| {
        saved += 1;
        Ok(())
    })
    .unwrap();
    let why = summary.stopped.expect("the run must stop");
    assert!(why.contains("not a number"), "{why}");
    assert_eq!(saved, 0, "no checkpoint of a broken epoch");
    assert!(summary.net.is_finite());
}

#[test]
fn whole_games_are_held_out_and_damaged_records_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.wpos");
    let (_, records) = material_records(2000);
    let (mut f, _) = open_for_append(&path).unwrap();
    // Ten positions a game.
    for (i, r) in records.iter().enumerate() {
        let mut r = *r;
        r.game = (i / 10) as u32;
        r.last_of_game = i % 10 == 9;
        f.write_all(&r.encode()).unwrap();
    }
    let mut bad = records[0].encode();
    bad[26] = 0xf0;
    f.write_all(&bad).unwrap();
    drop(f);
    let s = TrainSettings {
        data: vec![path.clone()],
        ..small(Activation::SCRelu)
    };
    let (train, held, scale) = load(&s).unwrap();
    assert!((SCALE_RANGE.0..=SCALE_RANGE.1).contains(&scale), "{scale}");
    assert_eq!(train.len() + held.len(), 2000);
    assert!(held.len() % 10 == 0 && !held.is_empty(), "{}", held.len());
    let games: Vec<u32> = (0..200).filter(|&g| held_out(0, g)).collect();
    assert_eq!(held.len(), games.len() * 10);
}

#[test]
fn xz_files_are_read_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.wpos");
    let (_, records) = material_records(50);
    let (mut f, _) = open_for_append(&path).unwrap();
    for r in &records {
        f.write_all(&r.encode()).unwrap();
    }
    drop(f);
    let status = std::process::Command::new("xz")
        .arg("-k")
        .arg(&path)
        .status();
    match status {
        Ok(s) if s.success() => {}
        _ => {
            assert!(std::env::var("CI").is_err(), "xz is needed for this test");
            eprintln!("skipped: no xz program");
            return;
        }
    }
    let xz = dir.path().join("d.wpos.xz");
    let (a, _) = read_records_lenient(&path).unwrap();
    let (b, _) = read_records_lenient(&xz).unwrap();
    assert_eq!(a, b);
    std::fs::write(&xz, b"garbage").unwrap();
    assert!(read_records_lenient(&xz).unwrap_err().contains("xz"));
}

#[test]
fn bad_settings_are_refused() {
    let s = TrainSettings::default();
    assert!(run(&s, &mut |_| {}).is_err());
    let s = TrainSettings {
        data: vec![PathBuf::from("/nonexistent.wpos")],
        ..TrainSettings::default()
    };
    assert!(run(&s, &mut |_| {}).unwrap_err().contains("nonexistent"));
    let s = TrainSettings {
        data: vec![PathBuf::from("/nonexistent.wpos")],
        wdl: 1.5,
        ..TrainSettings::default()
    };
    assert!(run(&s, &mut |_| {}).unwrap_err().contains("--wdl"));
    let s = TrainSettings {
        data: vec![PathBuf::from("/nonexistent.wpos")],
        arch: Arch {
            hidden: 100,
            activation: Activation::SCRelu,
            buckets: 1,
        },
        ..TrainSettings::default()
    };
    assert!(run(&s, &mut |_| {}).unwrap_err().contains("hidden"));
    assert!(Schedule::parse("step:0:0.5").is_err());
    assert!(Schedule::parse("wobbly").is_err());
    assert_eq!(
        Schedule::parse("step:4:0.3").unwrap(),
        Schedule::Step {
            every: 4,
            gamma: 0.3
        }
    );
}
