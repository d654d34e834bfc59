import { boot } from '../../kit/boot.tsx'
import { PlaceholdersTool } from '../generate/placeholders.tsx'

boot(() => <PlaceholdersTool />)
