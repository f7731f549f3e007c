import './styles.css';
import { resumeSession } from './session';

// The console's first script is small: it starts resuming the session (and, on the Overview, the
// Overview's calls), then loads React and the pages, which render while those calls are answered.
resumeSession();
void import('./start');
