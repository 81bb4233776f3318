//! `scenedec`: inspect J3D and .bbmodel models from the command line.
//!
//! `scenedec inspect [--json] [FILE...]` prints what each model holds; with no
//! FILE it inspects the bundled samples. `scenedec textures FILE -o DIR
//! [--mips]` writes each decoded texture as PNG. Exit status: 0 when every
//! file loaded (and every PNG was written), 1 when any failed, 2 on usage
//! errors.

mod inspect;
mod json_out;
mod samples;
mod textures;

use std::process::ExitCode;

use clap::{Arg, ArgAction, Command};

fn cli() -> Command {
    Command::new("scenedec")
        .about("Decode J3D (.bmd/.bdl) and Blockbench (.bbmodel) models")
        .version(env!("CARGO_PKG_VERSION"))
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommand(
            Command::new("inspect")
                .about("Print what each model holds (the bundled samples when no FILE is given)")
                .arg(
                    Arg::new("json")
                        .long("json")
                        .action(ArgAction::SetTrue)
                        .help("One JSON object per file, one per line"),
                )
                .arg(
                    Arg::new("files")
                        .value_name("FILE")
                        .num_args(0..)
                        .value_parser(clap::value_parser!(std::path::PathBuf)),
                ),
        )
        .subcommand(
            Command::new("textures")
                .about("Write each decoded texture as PNG: DIR/<index>_<name>.png")
                .arg(
                    Arg::new("file")
                        .value_name("FILE")
                        .required(true)
                        .value_parser(clap::value_parser!(std::path::PathBuf)),
                )
                .arg(
                    Arg::new("output")
                        .short('o')
                        .long("output")
                        .value_name("DIR")
                        .required(true)
                        .value_parser(clap::value_parser!(std::path::PathBuf))
                        .help("Folder to write into (created if needed)"),
                )
                .arg(
                    Arg::new("mips")
                        .long("mips")
                        .action(ArgAction::SetTrue)
                        .help("Also write each further mip level k as <index>_<name>_mip<k>.png"),
                ),
        )
}

fn main() -> ExitCode {
    let matches = match cli().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    match matches.subcommand() {
        Some(("inspect", m)) => {
            let json = m.get_flag("json");
            let files: Vec<_> = m
                .get_many::<std::path::PathBuf>("files")
                .map(|f| f.cloned().collect())
                .unwrap_or_default();
            inspect::run(&files, json)
        }
        Some(("textures", m)) => {
            let (Some(file), Some(dir)) = (
                m.get_one::<std::path::PathBuf>("file"),
                m.get_one::<std::path::PathBuf>("output"),
            ) else {
                return ExitCode::from(2);
            };
            textures::run(file, dir, m.get_flag("mips"))
        }
        _ => ExitCode::from(2),
    }
}
