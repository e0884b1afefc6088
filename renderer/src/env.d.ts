// Lets TypeScript accept the CSS and asset imports that vite bundles.
/// <reference types="vite/client" />
