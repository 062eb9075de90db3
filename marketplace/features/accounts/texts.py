"""/auth's headings: 'Welcome back' only on a browser someone has signed in on."""

AUTH_HEADING_FIRST_VISIT = "Sign in or create your account"
AUTH_HEADING_RETURNING = "Welcome back"
AUTH_HEADING_SIGN_UP = "Create your account"
