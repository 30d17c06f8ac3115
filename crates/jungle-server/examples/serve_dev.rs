//! A development server on 127.0.0.1 with a throwaway database: `cargo run -p jungle-server --example
//! serve_dev [ADDR] [DB]`. The real command is `jungle serve`.

fn main() {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:8080".to_string());
    let db = args
        .next()
        .unwrap_or_else(|| "/tmp/jungle-dev.db".to_string());
    let config = jungle_server::Config::new(
        addr.parse().expect("an address like 127.0.0.1:8080"),
        db.into(),
    );
    if let Err(e) =
        jungle_server::run_blocking(&config, |bound| println!("listening on http://{bound}/"))
    {
        eprintln!("serve_dev: {e}");
        std::process::exit(1);
    }
}
