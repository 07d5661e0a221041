fn main() -> std::process::ExitCode {
    ringbar::cli::main()
}
